package io.lineup.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lineup.core.model.QueueName;
import io.lineup.testing.RedisClusterExtension;
import io.lineup.testing.RedisServerExtension;
import io.lineup.testing.TestRedis;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A schedule change one engine announces reaches every engine that listens, on a standalone Redis
 * and on a cluster (where the listener's node is not the one the message was published on).
 */
class ScheduleAnnouncementsTest {
  @RegisterExtension static RedisServerExtension standalone = RedisServerExtension.withDefaults();

  @RegisterExtension
  static RedisClusterExtension cluster = RedisClusterExtension.sharedThreeMasters();

  @Test
  void aChangeAnnouncedByOneEngineReachesTheOthersOnAStandaloneRedis() throws Exception {
    announceAndHear(standalone);
  }

  @Test
  void aChangeAnnouncedByOneEngineReachesTheOthersOnACluster() throws Exception {
    announceAndHear(cluster);
  }

  private static void announceAndHear(TestRedis redis) throws Exception {
    QueueName queue =
        QueueName.of(RedisServerExtension.uniqueName("ns"), RedisServerExtension.uniqueName("q"));
    Queue<QueueName> heardByOne = new ConcurrentLinkedQueue<>();
    Queue<QueueName> heardByTwo = new ConcurrentLinkedQueue<>();
    try (RedisGateway announcing = new RedisGateway(redis.uri(), Duration.ofSeconds(5), 8, null);
        RedisGateway one = new RedisGateway(redis.uri(), Duration.ofSeconds(5), 8, null);
        RedisGateway two = new RedisGateway(redis.uri(), Duration.ofSeconds(5), 8, null);
        AutoCloseable first = new ScheduleStore(one, () -> "").onAnnounced(heardByOne::add);
        AutoCloseable second = new ScheduleStore(two, () -> "").onAnnounced(heardByTwo::add)) {

      new ScheduleStore(announcing, () -> "").announce(queue);

      await().atMost(Duration.ofSeconds(30)).until(() -> heardByOne.contains(queue));
      await().atMost(Duration.ofSeconds(30)).until(() -> heardByTwo.contains(queue));
      assertThat(heardByOne).containsOnly(queue);
    }
  }
}
