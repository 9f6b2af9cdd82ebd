package io.lineup.server;

import static io.lineup.server.DispatchFixtures.endpoint;
import static io.lineup.server.DispatchFixtures.name;
import static io.lineup.server.DispatchFixtures.submit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Several server instances share an endpoint: its limits hold across them, nothing is lost. */
class DispatchInstancesTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  static final String NS = "multi";

  @Test
  void twoInstancesShareOneEndpointWithinItsLimitsAndRunNoTaskTwice() {
    Api one = server.admin();
    Api two = Api.adminOf(server.startAnother());
    TestTarget target = TestTarget.start();
    try (target) {
      // 300 ms a request at a concurrency of 3 is 10 a second: both limits bind.
      target.latency(300);
      String name = name("shared");
      String settings = "\"rate\": 10, \"concurrency\": 3";
      String ep = endpoint(one, NS, name, target.url(), settings + ", \"paused\": true");
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        ids.add(submit(i % 2 == 0 ? one : two, ep, "{}"));
      }
      // The second instance learns of the endpoint from Redis, within a second.
      await()
          .atMost(Duration.ofSeconds(1))
          .until(() -> two.get(ep).json().path("paused").asBoolean());
      endpoint(two, NS, name, target.url(), settings);
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(50))
          .until(() -> target.count() >= 30);
      List<Long> leased = new ArrayList<>();
      for (String id : ids) {
        JsonNode task = one.get(ep + "/tasks/" + id + "?wait_ms=2000").json();
        assertThat(task.path("status").asText()).isEqualTo("succeeded");
        leased.add(task.path("started_at").asLong());
      }
      Map<String, Integer> deliveries = new HashMap<>();
      target.seen().forEach(s -> deliveries.merge(s.header("Idempotency-Key"), 1, Integer::sum));
      int busiest = DispatchLimitsTest.busiestWindowMillis(leased, 1000);
      System.out.printf(
          "two instances, rate 10/s and concurrency 3: busiest 1 s window of leases %d,"
              + " at most %d in flight at the target, %d requests for %d tasks%n",
          busiest, target.maxInFlight(), target.count(), ids.size());
      assertThat(deliveries).hasSize(30).allSatisfy((id, n) -> assertThat(n).isEqualTo(1));
      assertThat(busiest).isLessThanOrEqualTo(10);
      assertThat(target.maxInFlight()).isLessThanOrEqualTo(3).isGreaterThanOrEqualTo(2);
    }
  }

  @Test
  void twoInstancesSendingAsFastAsTheyMayHoldTheRateInEverySlidingSecondOfTheSendsTheyDecided() {
    Api one = server.admin();
    Api two = Api.adminOf(server.startAnother());
    TestTarget target = TestTarget.start();
    try (target) {
      String name = name("rate");
      // A burst of the whole rate lets each instance lease as many as the period allows at once,
      // which is where one instance's late send used to meet the other's prompt one.
      String settings = "\"rate\": 20, \"burst\": 20, \"concurrency\": 0, \"max_attempts\": 1";
      String ep = endpoint(one, NS, name, target.url(), settings + ", \"paused\": true");
      List<String> ids = new ArrayList<>();
      // 100 tasks: five seconds of sends, each instance leasing whole bursts at once.
      for (int i = 0; i < 100; i++) {
        ids.add(submit(i % 2 == 0 ? one : two, ep, "{}"));
      }
      await()
          .atMost(Duration.ofSeconds(5))
          .until(() -> two.get(ep).json().path("paused").asBoolean());
      endpoint(two, NS, name, target.url(), settings);
      await()
          .atMost(Duration.ofSeconds(120))
          .pollInterval(Duration.ofMillis(50))
          .until(() -> target.count() >= 100);
      List<Long> sentAt = DispatchFixtures.sendTimes(one, ep, ids);
      int decided = DispatchLimitsTest.busiestWindowMillis(sentAt, 1000);
      // At the target the figure depends on how busy this machine is: printed, not asserted.
      int atTarget = DispatchLimitsTest.busiestWindow(target.seen(), 1000);
      // How long after its slot each request reached the target (both clocks are this host's).
      Map<String, Long> slotOf = new HashMap<>();
      for (String id : ids) {
        JsonNode attempts = DispatchFixtures.awaitEnd(one, ep, id).path("attempts");
        slotOf.put(id, attempts.get(0).path("started_at").asLong());
      }
      List<Long> delays =
          target.seen().stream()
              .map(x -> x.arrivedMillis() - slotOf.get(x.header("Lineup-Task-Id")))
              .sorted()
              .toList();
      System.out.printf(
          "two instances, rate 20/s with a burst of 20: busiest 1 s window of decided sends %d,"
              + " at the target %d; %d requests for %d tasks; from slot to arrival at the target"
              + " median %d ms, max %d ms%n",
          decided,
          atTarget,
          target.count(),
          ids.size(),
          delays.get(delays.size() / 2),
          delays.get(delays.size() - 1));
      assertThat(sentAt).as("one attempt per task").hasSize(100);
      assertThat(decided).isLessThanOrEqualTo(20);
    }
  }
}
