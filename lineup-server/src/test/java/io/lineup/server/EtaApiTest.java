package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.testing.RedisServerExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The ETA fields of a job and a queue over HTTP, and the expected service time they start from.
 * Nothing is served here, so the estimate comes from the expected service time alone and its values
 * are exact; how accurate measured ETAs are is checked in the engine (EtaAccuracyTest).
 */
class EtaApiTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  static Api api;

  @BeforeAll
  static void connect() {
    api = server.admin();
  }

  /** A queue path whose jobs have the caller-given ids {@code j0}, {@code j1}, … in line order. */
  static String aQueueOf(int jobs) {
    String queue = "/v1/queues/eta/" + RedisServerExtension.uniqueName("q");
    StringBuilder bulk = new StringBuilder("[");
    for (int i = 0; i < jobs; i++) {
      bulk.append(i == 0 ? "" : ",").append("{\"id\": \"j").append(i).append("\", \"payload\": 1}");
    }
    assertThat(api.post(queue + "/jobs", bulk + "]").status()).isEqualTo(201);
    return queue;
  }

  static JsonNode jobAt(String queue, int position) {
    Reply reply = api.get(queue + "/jobs/j" + position);
    assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
    assertThat(reply.json().get("position").asInt()).isEqualTo(position);
    return reply.json();
  }

  @Test
  void aWaitingJobHasNoEtaUntilTheQueueServedJobsOrExpectsAServiceTime() {
    String queue = aQueueOf(10);
    api.patch(queue, "{\"rate_limit\": 50}");

    JsonNode job = jobAt(queue, 9);

    assertThat(job.has("eta_ms")).isTrue();
    assertThat(job.get("eta_ms").isNull()).isTrue();
    assertThat(job.get("eta_low_ms").isNull()).isTrue();
    assertThat(job.get("eta_high_ms").isNull()).isTrue();
  }

  @Test
  void anExpectedServiceTimeGivesTheEtaAndItsBandUntilThePauseTakesThemAway() {
    String queue = aQueueOf(20);
    Reply patched = api.patch(queue, "{\"expected_service_ms\": 1000, \"concurrency_limit\": 2}");
    assertThat(patched.status()).as(patched.toString()).isEqualTo(200);

    // Two at once, one second each: two jobs a second; the tenth job waits 5 s.
    JsonNode job = jobAt(queue, 9);
    assertThat(job.get("eta_ms").asLong()).isEqualTo(5_000);
    assertThat(job.get("eta_low_ms").asLong()).isEqualTo(1_500);
    assertThat(job.get("eta_high_ms").asLong()).isEqualTo(11_000);

    JsonNode stats = api.get(queue).json();
    assertThat(stats.get("service_rate").asDouble()).isEqualTo(2.0);
    assertThat(stats.get("drain_eta_ms").asLong()).isEqualTo(10_000);
    assertThat(stats.get("settings").get("expected_service_ms").asLong()).isEqualTo(1_000);

    api.patch(queue, "{\"paused\": true}");
    JsonNode paused = jobAt(queue, 9);
    assertThat(paused.get("eta_ms").isNull()).isTrue();
    assertThat(paused.get("eta_high_ms").isNull()).isTrue();
    assertThat(api.get(queue).json().get("drain_eta_ms").isNull()).isTrue();
  }

  @Test
  void anExpectedServiceTimeOutOfRangeIsRefusedNamingTheField() {
    String queue = aQueueOf(1);
    for (String value : new String[] {"-1", "86400001", "\"1s\""}) {
      Reply reply = api.patch(queue, "{\"expected_service_ms\": " + value + "}");
      assertThat(reply.status()).as(value).isEqualTo(400);
      assertThat(reply.field("error")).isEqualTo("invalid_field");
      assertThat(reply.field("field")).isEqualTo("expected_service_ms");
    }
  }
}
