package io.lineup.server;

import static io.lineup.server.DispatchFixtures.awaitEnd;
import static io.lineup.server.DispatchFixtures.endpoint;
import static io.lineup.server.DispatchFixtures.name;
import static io.lineup.server.DispatchFixtures.submit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.server.TestTarget.Answer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The circuit breaker of an endpoint served by two instances: one count of consecutive failures and
 * one state in Redis, so both instances stop together and exactly one probe is sent between them.
 */
class DispatchBreakerTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  static final String NS = "breakers";

  static JsonNode breakerOf(Api api, String endpoint) {
    return api.get(endpoint).json().path("circuit_breaker_state");
  }

  @Test
  void twoInstancesCountFailuresTogetherOpenTogetherAndSendOneProbeBetweenThem() {
    Api one = server.admin();
    Api two = Api.adminOf(server.startAnother());
    TestTarget target = TestTarget.start();
    try (target) {
      AtomicBoolean healthy = new AtomicBoolean(false);
      // A failing answer takes 200 ms, time enough for a second probe to start if one could.
      target.answering(s -> healthy.get() ? Answer.ok("{}") : new Answer(503, 200, null, "{}"));
      String ep =
          endpoint(
              one,
              NS,
              name("shared"),
              target.url(),
              "\"concurrency\": 4, \"max_attempts\": 50, \"backoff\": {\"kind\": \"fixed\","
                  + " \"initial_ms\": 10, \"jitter\": 0}, \"circuit_breaker\": {\"failures\": 4,"
                  + " \"cooldown_ms\": 1500}");
      await().atMost(Duration.ofSeconds(1)).until(() -> two.get(ep).status() == 200);
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        ids.add(submit(i % 2 == 0 ? one : two, ep, "{}"));
      }

      // Four failures in all open it, for both instances at once (one record in Redis).
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> breakerOf(two, ep).path("state").asText().equals("open"));
      JsonNode onOne = breakerOf(one, ep);
      JsonNode onTwo = breakerOf(two, ep);
      assertThat(onOne.path("state").asText()).isEqualTo("open");
      assertThat(onOne.path("probe_at").asLong()).isEqualTo(onTwo.path("probe_at").asLong());
      // Exactly the fourth failure opened it; failures of requests still in flight then leave an
      // open breaker as it is.
      assertThat(onTwo.path("consecutive_failures").asInt()).isEqualTo(4);
      // Requests in flight when it opened still end; then nothing is sent until the probe.
      await().atMost(Duration.ofSeconds(2)).until(() -> target.inFlight() == 0);
      int atOpening = target.count();
      System.out.printf(
          "breaker over two instances: opened after %d failed requests (threshold 4,"
              + " concurrency 4), counted %d%n",
          atOpening, onTwo.path("consecutive_failures").asInt());
      // At most 3 more were in flight when it opened, and a retry leased in the moment between
      // the opening and the queue's pause may still go out: never the 8 tasks' 50 attempts.
      assertThat(atOpening).isBetween(4, 4 + 3 + 3);
      long firstProbeAt = onTwo.path("probe_at").asLong();
      target.reset();

      // After the cool-down one probe goes, from one instance or the other; it fails, and the
      // breaker opens again for both.
      await()
          .atMost(Duration.ofSeconds(5))
          .until(() -> breakerOf(one, ep).path("probe_at").asLong() > firstProbeAt);
      JsonNode reopened = breakerOf(two, ep);
      assertThat(reopened.path("state").asText()).isEqualTo("open");
      long secondProbeAt = reopened.path("probe_at").asLong();
      assertThat(target.seen().get(0).arrivedMillis()).isGreaterThanOrEqualTo(firstProbeAt);
      assertThat(target.count()).as("one probe between two instances").isEqualTo(1);
      assertThat(target.maxInFlight()).isEqualTo(1);
      await()
          .pollDelay(Duration.ofMillis(700))
          .atMost(Duration.ofSeconds(1))
          .untilAsserted(() -> assertThat(target.count()).isEqualTo(1));

      // Healthy again: the next probe closes it and every task succeeds.
      healthy.set(true);
      for (String id : ids) {
        assertThat(awaitEnd(one, ep, id).path("status").asText()).isEqualTo("succeeded");
      }
      assertThat(target.seen().get(1).arrivedMillis())
          .as("the second probe waited for the second cool-down")
          .isGreaterThanOrEqualTo(secondProbeAt);
      JsonNode closed = breakerOf(two, ep);
      assertThat(closed.path("state").asText()).isEqualTo("closed");
      assertThat(closed.path("consecutive_failures").asInt()).isZero();
    }
  }
}
