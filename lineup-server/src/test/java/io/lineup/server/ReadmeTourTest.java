package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The README's five-minute tour, step by step, over HTTP. */
class ReadmeTourTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  static Api api;

  @BeforeAll
  static void connect() {
    api = server.admin();
  }

  @Test
  void aDelayedJobBecomesReadyIsLeasedAckedAndKeepsItsResult() {
    String jobs = "/v1/queues/shop/close-unpaid/jobs";

    Reply published = api.post(jobs, "{\"payload\": {\"order\": 42}, \"delay_ms\": 1500}");
    assertThat(published.status()).isEqualTo(201);
    assertThat(published.json().get("created").asBoolean()).isTrue();
    assertThat(published.field("state")).isEqualTo("DELAYED");
    assertThat(published.json().get("position").asLong()).isEqualTo(-1);
    String id = published.field("id");

    Reply delayed = api.get(jobs + "/" + id);
    assertThat(delayed.status()).isEqualTo(200);
    assertThat(delayed.field("state")).isEqualTo("DELAYED");
    assertThat(delayed.json().get("payload").get("order").asInt()).isEqualTo(42);

    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () -> assertThat(api.get(jobs + "/" + id).field("state")).isEqualTo("READY"));
    Reply ready = api.get(jobs + "/" + id);
    assertThat(ready.json().get("position").asLong()).isZero();

    Reply lease =
        api.post("/v1/queues/shop/close-unpaid/leases", "{\"count\": 1, \"wait_ms\": 30000}");
    assertThat(lease.status()).isEqualTo(200);
    var job = lease.json().get("jobs").get(0);
    assertThat(job.get("id").asText()).isEqualTo(id);
    assertThat(job.get("queue").asText()).isEqualTo("shop/close-unpaid");
    assertThat(job.get("payload").get("order").asInt()).isEqualTo(42);
    assertThat(job.get("attempt").asInt()).isEqualTo(1);
    String token = job.get("token").asText();

    Reply ack =
        api.post(
            jobs + "/" + id + "/ack",
            "{\"token\": \"" + token + "\", \"result\": {\"closed\": true}}");
    assertThat(ack.status()).isEqualTo(204);

    Reply done = api.get(jobs + "/" + id);
    assertThat(done.field("state")).isEqualTo("DONE");
    assertThat(done.json().get("result").get("closed").asBoolean()).isTrue();
    assertThat(done.json().get("finished_at").asLong()).isPositive();
  }
}
