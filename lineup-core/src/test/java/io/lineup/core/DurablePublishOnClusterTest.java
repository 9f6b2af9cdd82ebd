package io.lineup.core;

import static io.lineup.core.Fixtures.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.cluster.SlotHash;
import io.lineup.core.model.Durability;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.ReplicationTimeoutException;
import io.lineup.testing.RedisClusterExtension;
import io.lineup.testing.RedisServerExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * On a Redis Cluster the WAIT of a durable publish goes to the master of the queue's slot, on the
 * connection that wrote the jobs: silencing that master's replica fails the publish, while queues
 * on the other masters are not affected.
 */
class DurablePublishOnClusterTest {
  @RegisterExtension
  static RedisClusterExtension cluster = RedisClusterExtension.threeMastersThreeReplicas();

  @Test
  void aDurablePublishWaitsForTheReplicaOfItsQueuesMasterOnly() {
    QueueName onFirst = aQueueOnMaster(0);
    QueueName onSecond = aQueueOnMaster(1);
    try (Lineup lineup =
        Lineup.connect(LineupOptions.builder(cluster.uri()).maintenance(false).build())) {
      assertThat(lineup.publish(onFirst, aJob("warm"), Durability.replicas(1)).created()).isTrue();

      cluster.replicas().get(0).freeze();
      try {
        Durability quick = Durability.replicas(1).within(Duration.ofMillis(300));
        assertThatThrownBy(() -> lineup.publish(onFirst, aJob("unconfirmed"), quick))
            .as("the first master's replica is silent")
            .isInstanceOfSatisfying(
                ReplicationTimeoutException.class, e -> assertThat(e.acknowledged()).isZero());
        assertThat(lineup.publish(onSecond, aJob("confirmed"), quick).created())
            .as("the second master's replica answers")
            .isTrue();
      } finally {
        cluster.replicas().get(0).thaw();
      }
      assertThat(lineup.stats(onFirst).ready()).as("the unconfirmed job was written").isEqualTo(2);
    }
  }

  private static QueueName aQueueOnMaster(int master) {
    while (true) {
      QueueName queue = QueueName.of("durable", RedisServerExtension.uniqueName("on-" + master));
      int slot = SlotHash.getSlot(queue.toString().getBytes(StandardCharsets.UTF_8));
      if (cluster.nodeOfSlot(slot) == master) {
        return queue;
      }
    }
  }
}
