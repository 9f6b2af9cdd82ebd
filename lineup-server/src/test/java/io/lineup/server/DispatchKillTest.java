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

  /**
   * How long a server process may take to listen: a bound, not a figure. A machine running other
   * builds beside the tests has been seen taking 50 s to start the JVM alone.
   */
  private static final Duration SERVER_START = Duration.ofMinutes(3);

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
      Api first = new Api(doomed.awaitListening(SERVER_START), LineupServerExtension.ADMIN_TOKEN);
      Api second =
          new Api(survivor.awaitListening(SERVER_START), LineupServerExtension.ADMIN_TOKEN);
      target.latency(1_000);
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
        // Every attempt is counted when its task is leased; a slow machine can also time an
        // attempt out and retry it.
        requests += last;
      }
      System.out.printf(
          "kill -9 of one of two instances: %d tasks, all succeeded; %d were sent again, with"
              + " their attempt counted, after the killed instance's lease ended; %d requests at"
              + " the target%n",
          ids.size(), again, target.count());
      assertThat(again).as("the killed instance held tasks").isGreaterThan(0);
      // Each task reached the target at least once. An attempt the killed instance had leased
      // (and so counted) but not sent yet when it died reaches nobody, which a busy machine, slow
      // to send what it leased, shows; every other attempt is a request.
      assertThat(target.count()).isBetween(ids.size(), requests);
    }
  }

  /**
   * Concurrency 1, so that the order of the requests after the kill is Lineup's alone: the killed
   * instance's lease holds the only slot until it runs out, and then the reclaimed task must go
   * first, ahead of the task that waited behind it and of the ten submitted after it.
   */
  @Test
  void aTaskInFlightOnAKilledInstanceIsSentNextWhenItsLeaseRunsOutAheadOfTasksSubmittedAfterIt() {
    TestTarget target = TestTarget.start();
    try (target;
        MainProcess doomed = instance("doomed-alone")) {
      Api first = new Api(doomed.awaitListening(SERVER_START), LineupServerExtension.ADMIN_TOKEN);
      // The first request hangs at the target until the instance that sent it is gone. Every
      // task is queued before the endpoint is resumed and the kill follows the first request at
      // once, well within its attempt timeout: an attempt that timed out first would be nacked
      // and go to the back after its backoff, which is not what this test is about.
      target.latency(60_000);
      String settings = "\"concurrency\": 1, \"attempt_timeout_ms\": 3000";
      String ep =
          endpoint(first, "kill", name("place"), target.url(), settings + ", \"paused\": true");
      String inFlight = submit(first, ep, "{}");
      List<String> after = new ArrayList<>();
      for (int i = 0; i < 11; i++) {
        after.add(submit(first, ep, "{}"));
      }
      endpoint(first, "kill", ep.substring(ep.lastIndexOf('/') + 1), target.url(), settings);
      await().atMost(Duration.ofSeconds(30)).until(() -> target.inFlight() >= 1);
      doomed.kill();
      doomed.awaitExit(Duration.ofSeconds(10));
      target.latency(0);

      try (MainProcess survivor = instance("survivor-after")) {
        Api second =
            new Api(survivor.awaitListening(SERVER_START), LineupServerExtension.ADMIN_TOKEN);
        JsonNode reclaimed = DispatchFixtures.awaitEnd(second, ep, inFlight);
        assertThat(reclaimed.path("status").asText())
            .as(reclaimed.toString())
            .isEqualTo("succeeded");
        JsonNode attempts = reclaimed.path("attempts");
        assertThat(attempts.get(attempts.size() - 1).path("attempt").asInt())
            .as("sent again after the killed instance's lease ran out")
            .isEqualTo(2);
        for (String id : after) {
          JsonNode task = DispatchFixtures.awaitEnd(second, ep, id);
          assertThat(task.path("status").asText()).as(task.toString()).isEqualTo("succeeded");
        }
        // The target's first request is the killed instance's; the order after it is the
        // survivor's, one at a time.
        List<TestTarget.Seen> seen = target.seen();
        List<String> order =
            seen.subList(1, seen.size()).stream().map(x -> x.header("Lineup-Task-Id")).toList();
        List<String> expected = new ArrayList<>();
        expected.add(inFlight);
        expected.addAll(after);
        assertThat(order)
            .as(
                "after the kill: the reclaimed task first, then the others in the order submitted; the reclaimed task: %s",
                reclaimed)
            .containsExactlyElementsOf(expected);
      }
    }
  }
}
