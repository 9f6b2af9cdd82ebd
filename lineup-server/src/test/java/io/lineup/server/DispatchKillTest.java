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
}
