package io.lineup.server;

import static io.lineup.server.DispatchFixtures.awaitEnd;
import static io.lineup.server.DispatchFixtures.endpoint;
import static io.lineup.server.DispatchFixtures.name;
import static io.lineup.server.DispatchFixtures.submit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.core.Lineup;
import io.lineup.core.LineupOptions;
import io.lineup.dispatch.EndpointKey;
import io.lineup.testing.RedisServerExtension;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Deadlines at submit over HTTP: a task's {@code start_by}/{@code finish_by} and a job's {@code
 * start_by} (or their relative forms) checked against the line's ETA, refused with 429 {@code
 * deadline_unreachable} and nothing queued, or accepted; a queued task whose deadline passes ends
 * without a request. The ETAs come from an expected service time with one request or job at a time
 * and nothing ever served, so they are large and exact whatever the machine's speed.
 */
class DeadlinesApiTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  static final String NS = "deadlines";
  static Api api;
  static Lineup engine;

  @BeforeAll
  static void connect() {
    api = server.admin();
    engine = Lineup.connect(LineupOptions.builder(server.redis().uri()).build());
  }

  @AfterAll
  static void close() {
    engine.close();
  }

  /** A queue served one job at a time, each expected to take a second, with 50 jobs waiting. */
  static String aSlowQueueOfFifty() {
    String queue = "/v1/queues/" + NS + "/" + RedisServerExtension.uniqueName("q");
    StringBuilder bulk = new StringBuilder("[");
    for (int i = 0; i < 50; i++) {
      bulk.append(i == 0 ? "" : ",").append("{\"payload\": ").append(i).append("}");
    }
    assertThat(api.post(queue + "/jobs", bulk + "]").status()).isEqualTo(201);
    Reply patched = api.patch(queue, "{\"expected_service_ms\": 1000, \"concurrency_limit\": 1}");
    assertThat(patched.status()).as(patched.toString()).isEqualTo(200);
    return queue;
  }

  @Test
  void aJobWhoseStartByTheQueueCannotMeetIsRefusedWithTheEarliestStartAndNothingIsQueued() {
    String queue = aSlowQueueOfFifty();
    long before = System.currentTimeMillis();

    Reply refused = api.post(queue + "/jobs", "{\"payload\": 1, \"start_within_ms\": 60000}");

    assertThat(refused.status()).as(refused.toString()).isEqualTo(429);
    assertThat(refused.field("error")).isEqualTo("deadline_unreachable");
    assertThat(refused.field("field")).isEqualTo("start_by");
    // 51 jobs at one a second, at worst half as fast: well over the minute asked for.
    assertThat(refused.json().path("earliest_start_at").asLong()).isGreaterThan(before + 60_000);
    JsonNode stats = api.get(queue).json();
    assertThat(stats.toString()).contains("\"ready\":50");
    assertThat(engine.stats(queueName(queue)).counters()).containsEntry("published", 50L);

    Reply accepted = api.post(queue + "/jobs", "{\"payload\": 1, \"start_within_ms\": 600000}");
    assertThat(accepted.status()).as(accepted.toString()).isEqualTo(201);
  }

  @Test
  void aJobNotStartedByItsStartByExpires() {
    String queue = "/v1/queues/" + NS + "/" + RedisServerExtension.uniqueName("q");
    // No ETA (nothing served, no expected service time): accepted as the deadline has not passed.
    Reply accepted =
        api.post(queue + "/jobs", "{\"id\": \"soon\", \"payload\": 1, \"start_within_ms\": 300}");
    assertThat(accepted.status()).as(accepted.toString()).isEqualTo(201);

    await()
        .atMost(Duration.ofSeconds(15))
        .until(() -> api.get(queue + "/jobs/soon").field("state").equals("EXPIRED"));
  }

  @Test
  void aStartByThatHasPassedIsRefusedAndBothFormsAtOnceAreABadField() {
    String queue = "/v1/queues/" + NS + "/" + RedisServerExtension.uniqueName("q");
    Reply past = api.post(queue + "/jobs", "{\"payload\": 1, \"start_by\": 1000}");
    assertThat(past.status()).as(past.toString()).isEqualTo(429);
    assertThat(past.field("error")).isEqualTo("deadline_unreachable");

    Reply both =
        api.post(
            queue + "/jobs", "{\"payload\": 1, \"start_by\": 1000, \"start_within_ms\": 1000}");
    assertThat(both.status()).as(both.toString()).isEqualTo(400);
    assertThat(both.field("field")).isEqualTo("start_within_ms");
  }

  @Test
  void
      aTaskThatCannotFinishByItsDeadlineIsRefusedOnEitherServerAndNothingIsQueuedWhileALaterOneIsAccepted() {
    TestTarget target = TestTarget.start();
    try (target) {
      // The first request never answers in the test's time: one in service, the rest wait.
      target.latency(120_000);
      String name = name("slow");
      String ep =
          endpoint(
              api,
              NS,
              name,
              target.url(),
              "\"concurrency\": 1, \"expected_service_ms\": 1000, \"attempt_timeout_ms\": 300000");
      submit(api, ep, "{}");
      await().atMost(Duration.ofSeconds(10)).until(() -> target.count() == 1);
      for (int i = 0; i < 50; i++) {
        submit(api, ep, "{}");
      }
      var queue = new EndpointKey(NS, name).queue();
      assertThat(engine.stats(queue).counters()).containsEntry("published", 51L);
      long before = System.currentTimeMillis();

      Reply refused = api.post(ep + "/tasks", "{\"finish_within_ms\": 5000}");

      assertThat(refused.status()).as(refused.toString()).isEqualTo(429);
      assertThat(refused.field("error")).isEqualTo("deadline_unreachable");
      assertThat(refused.field("field")).isEqualTo("finish_by");
      assertThat(refused.json().path("earliest_start_at").asLong()).isGreaterThan(before + 5_000);
      assertThat(engine.stats(queue).counters()).containsEntry("published", 51L);

      Reply startRefused = api.post(ep + "/tasks", "{\"start_within_ms\": 5000}");
      assertThat(startRefused.status()).as(startRefused.toString()).isEqualTo(429);
      assertThat(startRefused.field("field")).isEqualTo("start_by");
      assertThat(engine.stats(queue).counters()).containsEntry("published", 51L);

      // Another server on the same Redis reads the same line and refuses it too.
      Api second = Api.adminOf(server.startAnother());
      Reply refusedThere = second.post(ep + "/tasks", "{\"finish_within_ms\": 5000}");
      assertThat(refusedThere.status()).as(refusedThere.toString()).isEqualTo(429);
      assertThat(refusedThere.field("error")).isEqualTo("deadline_unreachable");
      assertThat(engine.stats(queue).counters()).containsEntry("published", 51L);

      Reply accepted = api.post(ep + "/tasks", "{\"finish_within_ms\": 600000}");
      assertThat(accepted.status()).as(accepted.toString()).isEqualTo(202);
      assertThat(accepted.field("status")).isEqualTo("queued");
      assertThat(engine.stats(queue).counters()).containsEntry("published", 52L);
      assertThat(target.count()).isEqualTo(1);
    }
  }

  @Test
  void aQueuedTaskWhoseStartByPassesEndsTimedOutWithoutARequestAndCallsBack() throws Exception {
    String ns = "deadlinescb";
    TestTarget target = TestTarget.start();
    TestTarget receiver = TestTarget.start();
    try (target;
        receiver) {
      api.put("/v1/callbacks/" + ns, "{\"allowed_prefixes\": [\"" + receiver.url() + "/\"]}");
      String ep = endpoint(api, ns, name("late"), target.url(), "\"paused\": true");
      // Paused: no ETA, so the task is taken; its start_by passes while it waits.
      Reply submitted =
          api.post(
              ep + "/tasks",
              "{\"start_within_ms\": 200, \"callback_url\": \"" + receiver.url() + "/end\"}");
      assertThat(submitted.status()).as(submitted.toString()).isEqualTo(202);
      String id = submitted.field("id");
      long submittedAt = System.currentTimeMillis();
      await()
          .atMost(Duration.ofSeconds(5))
          .until(() -> System.currentTimeMillis() > submittedAt + 300);

      api.put(ep, "{\"base_url\": \"" + target.url() + "\"}");
      JsonNode task = awaitEnd(api, ep, id);

      assertThat(task.path("status").asText()).isEqualTo("timed_out");
      assertThat(task.path("error").asText()).startsWith("start_by passed");
      assertThat(task.path("attempts")).isEmpty();
      await().atMost(Duration.ofSeconds(15)).until(() -> receiver.count() == 1);
      JsonNode record = io.lineup.server.http.Json.parse(receiver.seen().get(0).body());
      assertThat(record.path("id").asText()).isEqualTo(id);
      assertThat(record.path("status").asText()).isEqualTo("timed_out");
      assertThat(target.count()).as("the endpoint was never called").isZero();
    }
  }

  @Test
  void aQueuedTaskLeasedTooLateToFinishByItsDeadlineEndsWithoutARequest() {
    TestTarget target = TestTarget.start();
    try (target) {
      String ep =
          endpoint(
              api,
              NS,
              name("tight"),
              target.url(),
              "\"paused\": true, \"expected_service_ms\": 1000");
      // Paused: no ETA, so the task is taken; a second of service no longer fits once 500 ms
      // of its 1.5 s have passed.
      Reply submitted = api.post(ep + "/tasks", "{\"finish_within_ms\": 1500}");
      assertThat(submitted.status()).as(submitted.toString()).isEqualTo(202);
      String id = submitted.field("id");
      long submittedAt = System.currentTimeMillis();
      await()
          .atMost(Duration.ofSeconds(5))
          .until(() -> System.currentTimeMillis() > submittedAt + 600);

      api.put(ep, "{\"base_url\": \"" + target.url() + "\", \"expected_service_ms\": 1000}");
      JsonNode task = awaitEnd(api, ep, id);

      assertThat(task.path("status").asText()).isEqualTo("timed_out");
      assertThat(task.path("error").asText()).startsWith("deadline_unreachable");
      assertThat(task.path("attempts")).isEmpty();
      assertThat(target.count()).isZero();
    }
  }

  private static io.lineup.core.model.QueueName queueName(String path) {
    String[] parts = path.split("/");
    return io.lineup.core.model.QueueName.of(parts[3], parts[4]);
  }
}
