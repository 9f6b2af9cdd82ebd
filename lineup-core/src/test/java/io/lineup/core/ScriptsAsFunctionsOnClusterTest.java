package io.lineup.core;

import static io.lineup.core.Fixtures.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lineup.core.model.QueueName;
import io.lineup.redis.RedisProcess;
import io.lineup.testing.RedisClusterExtension;
import io.lineup.testing.TestRedis;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * On a Redis Cluster the engine loads a script's library on every master, so calls to queues on any
 * node go by FCALL, not only those on the node that first lacked the library.
 */
class ScriptsAsFunctionsOnClusterTest extends EngineSuite {
  @RegisterExtension
  static final RedisClusterExtension cluster = RedisClusterExtension.sharedThreeMasters();

  private static final Pattern FCALLS =
      Pattern.compile("cmdstat_fcall:calls=(\\d+),.*failed_calls=(\\d+)");

  @Override
  TestRedis redis() {
    return cluster;
  }

  @Test
  void everyMasterHoldsTheLibraryAfterTheFirstCallAndServesLaterCallsByFcall() {
    List<QueueName> queues = queuesSpreadOverTheNodes(cluster.nodes().size());
    try (Lineup lineup = anEngine(b -> b.maintenance(false))) {
      lineup.publish(queues.get(0), aJob("first"));
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> everyNodeAnswers("FUNCTION LIST LIBRARYNAME lineup_publish_*", "*1"));
      List<Long> before = succeededFcallsOnEachNode();

      for (QueueName queue : queues) {
        for (int i = 0; i < 5; i++) {
          lineup.publish(queue, aJob("job " + i));
        }
      }

      List<Long> after = succeededFcallsOnEachNode();
      for (int node = 0; node < after.size(); node++) {
        assertThat(after.get(node) - before.get(node))
            .as("node %d", node)
            .isGreaterThanOrEqualTo(5);
      }
      for (QueueName queue : queues) {
        assertThat(lineup.stats(queue).ready()).isEqualTo(queue == queues.get(0) ? 6 : 5);
      }
    }
  }

  private boolean everyNodeAnswers(String command, String answer) throws IOException {
    for (RedisProcess node : cluster.nodes()) {
      if (!answer.equals(node.command(command))) {
        return false;
      }
    }
    return true;
  }

  /** FCALLs each node served without an error so far, in the order of the nodes. */
  private List<Long> succeededFcallsOnEachNode() {
    List<Long> counts = new ArrayList<>();
    for (String stats : infoOfEachNode("commandstats")) {
      Matcher m = FCALLS.matcher(stats);
      counts.add(m.find() ? Long.parseLong(m.group(1)) - Long.parseLong(m.group(2)) : 0);
    }
    return counts;
  }
}
