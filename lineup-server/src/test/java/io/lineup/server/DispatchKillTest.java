package io.lineup.server;

import static io.lineup.server.DispatchFixtures.endpoint;
import static io.lineup.server.DispatchFixtures.name;
import static io.lineup.server.DispatchFixtures.submit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.testing.RedisServerExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Two server processes share an endpoint; one is killed with SIGKILL in the middle of a run. */
class DispatchKillTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  @TempDir Path folder;

  private MainProcess instance(String name) {
    return MainProcess.serverOn(redis.uri(), folder.resolve(name));
  }

  @Test
  void aKilledInstanceLosesNoTaskItsTasksAreRetriedByTheOtherAfterTheirLease() {
    TestTarget target = TestTarget.start();
    try (target;
        MainProcess doomed = instance("doomed");
        MainProcess survivor = instance("survivor")) {
      Api first =
          new Api(doomed.awaitListening(Duration.ofSeconds(60)), LineupServerExtension.ADMIN_TOKEN);
      Api second =
          new Api(
              survivor.awaitListening(Duration.ofSeconds(60)), LineupServerExtension.ADMIN_TOKEN);
      target.latency(1_500);
      // Created and fed through the instance to be killed, which starts sending at once; the
      // other one follows the endpoint within 250 ms.
      String ep =
          endpoint(
              first,
              "kill",
              name("kill"),
              target.url(),
              "\"concurrency\": 8, \"attempt_timeout_ms\": 2000");
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < 24; i++) {
        ids.add(submit(first, ep, "{}"));
      }
      await().atMost(Duration.ofSeconds(10)).until(() -> target.maxInFlight() >= 8);
      doomed.kill();
      doomed.awaitExit(Duration.ofSeconds(10));
      int again = 0;
      int requests = 0;
      for (String id : ids) {
        JsonNode task = DispatchFixtures.awaitEnd(second, ep, id);
        assertThat(task.path("status").asText()).as(task.toString()).isEqualTo("succeeded");
        JsonNode attempts = task.path("attempts");
        int last = attempts.get(attempts.size() - 1).path("attempt").asInt();
        if (last > 1) {
          again++;
        }
        // Every attempt reached the target, the killed instance's too (a slow machine can also
        // time an attempt out and retry it).
        requests += last;
      }
      System.out.printf(
          "kill -9 of one of two instances: %d tasks, all succeeded; %d were sent again, with"
              + " their attempt counted, after the killed instance's lease ended; %d requests at"
              + " the target%n",
          ids.size(), again, target.count());
      assertThat(again).as("the killed instance held tasks").isGreaterThan(0);
      assertThat(target.count()).isEqualTo(requests);
    }
  }

  @Test
  void
      tasksInFlightOnAKilledInstanceAreSentNextWhenTheirLeaseRunsOutAheadOfTasksSubmittedAfterThem() {
    TestTarget target = TestTarget.start();
    try (target;
        MainProcess doomed = instance("doomed-alone")) {
      Api first =
          new Api(doomed.awaitListening(Duration.ofSeconds(60)), LineupServerExtension.ADMIN_TOKEN);
      // The first two requests hang at the target until the instance that sent them is gone.
      target.latency(60_000);
      String ep =
          endpoint(
              first,
              "kill",
              name("place"),
              target.url(),
              "\"concurrency\": 2, \"attempt_timeout_ms\": 2000");
      List<String> early = List.of(submit(first, ep, "{}"), submit(first, ep, "{}"));
      await().atMost(Duration.ofSeconds(30)).until(() -> target.inFlight() >= 2);
      List<String> later = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        later.add(submit(first, ep, "{}"));
      }
      doomed.kill();
      doomed.awaitExit(Duration.ofSeconds(10));
      target.latency(0);

      try (MainProcess survivor = instance("survivor-after")) {
        Api second =
            new Api(
                survivor.awaitListening(Duration.ofSeconds(60)), LineupServerExtension.ADMIN_TOKEN);
        long lastEarlyLease = 0;
        for (String id : early) {
          JsonNode task = DispatchFixtures.awaitEnd(second, ep, id);
          assertThat(task.path("status").asText()).as(task.toString()).isEqualTo("succeeded");
          JsonNode attempts = task.path("attempts");
          assertThat(attempts.get(attempts.size() - 1).path("attempt").asInt())
              .as("sent again after the killed instance's lease ran out")
              .isEqualTo(2);
          lastEarlyLease = Math.max(lastEarlyLease, task.path("started_at").asLong());
        }
        long firstLaterLease = Long.MAX_VALUE;
        for (String id : later) {
          JsonNode task = DispatchFixtures.awaitEnd(second, ep, id);
          assertThat(task.path("status").asText()).as(task.toString()).isEqualTo("succeeded");
          firstLaterLease = Math.min(firstLaterLease, task.path("started_at").asLong());
        }
        // The target's first two requests are the killed instance's; the order after them is
        // the survivor's.
        List<TestTarget.Seen> seen = target.seen();
        List<String> order =
            seen.subList(2, seen.size()).stream().map(x -> x.header("Lineup-Task-Id")).toList();
        System.out.printf(
            "kill -9 with two tasks in flight and ten submitted after them: requests after the"
                + " kill in the order the target saw them %s (the reclaimed ones: %s)%n",
            order, early);
        assertThat(lastEarlyLease)
            .as("the reclaimed tasks were leased again before any task submitted after them")
            .isLessThanOrEqualTo(firstLaterLease);
      }
    }
  }
}
