package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lineup.core.internal.store.KeySpace;
import io.lineup.core.model.Durability;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.PublishResult;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSettings;
import io.lineup.core.model.ReplicationTimeoutException;
import io.lineup.redis.RedisProcess;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A durable publish is answered once Redis replicas hold its jobs ({@code WAIT} on the connection
 * that wrote them), on one master with one replica.
 */
class DurablePublishTest {
  private static RedisProcess master;
  private static RedisProcess replica;
  private static Lineup lineup;

  @BeforeAll
  static void startAMasterWithOneReplica() throws IOException {
    // Without the default 5 s pause before a full synchronisation, the replica is ready at once.
    master = RedisProcess.builder().setting("repl-diskless-sync-delay", "0").build().start();
    replica = RedisProcess.builder().build().start();
    replica.command("REPLICAOF 127.0.0.1 " + master.port());
    Awaitility.await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> replica.command("INFO replication").contains("master_link_status:up"));
    lineup = Lineup.connect(LineupOptions.builder(master.uri()).maintenance(false).build());
  }

  @AfterAll
  static void stopThem() {
    if (lineup != null) {
      lineup.close();
    }
    if (replica != null) {
      replica.close();
    }
    if (master != null) {
      master.close();
    }
  }

  @Test
  void aDurablePublishIsAnsweredOnceTheReplicaHoldsTheJobs() throws IOException {
    QueueName queue = aFreshQueue();

    List<PublishResult> results =
        lineup.publishAll(queue, List.of(aJob("a"), aJob("b")), Durability.replicas(1));

    assertThat(results).extracting(PublishResult::created).containsExactly(true, true);
    assertThat(replica.command("ZCARD " + readyKey(queue)))
        .as("the replica holds both jobs when the publish is answered")
        .isEqualTo(":2");
  }

  @Test
  void aDurablePublishNoReplicaAcknowledgesFailsSayingSoYetItsJobsAreWritten() {
    QueueName queue = aFreshQueue();
    lineup.publish(queue, aJob("before"), Durability.replicas(1));
    replica.freeze();
    try {
      // The replica is connected but silent: only a WAIT on the connection that wrote the jobs
      // can tell that it has not got them.
      assertThatThrownBy(() ->
              lineup.publishAll(
                  queue,
                  List.of(aJob("x"), aJob("y"), aJob("z")),
                  Durability.replicas(1).within(Duration.ofMillis(300))))
          .isInstanceOfSatisfying(
              ReplicationTimeoutException.class,
              e -> {
                assertThat(e.requested()).isEqualTo(1);
                assertThat(e.acknowledged()).isZero();
                assertThat(e.results()).hasSize(3).allMatch(PublishResult::created);
                assertThat(e.getMessage()).contains("only 0 of 1 replicas", "were written");
              });
    } finally {
      replica.thaw();
    }
    assertThat(lineup.stats(queue).ready()).as("the jobs were written all the same").isEqualTo(4);
  }

  @Test
  void theQueueSettingAsksForReplicasWhenAPublishNamesNone() {
    QueueName queue = aFreshQueue();
    lineup.configure(queue, QueueSettings.builder().durableReplicas(2).build());

    assertThatThrownBy(() -> lineup.publish(queue, aJob("wants two replicas")))
        .as("one replica cannot satisfy a queue that asks for two")
        .isInstanceOfSatisfying(
            ReplicationTimeoutException.class,
            e -> {
              assertThat(e.requested()).isEqualTo(2);
              assertThat(e.acknowledged()).isEqualTo(1);
            });
    assertThat(lineup.publish(queue, aJob("at once"), Durability.NONE).created())
        .as("a publish that names its durability overrides the queue's")
        .isTrue();

    lineup.configure(queue, QueueSettings.builder().durableReplicas(1).build());
    assertThat(lineup.publish(queue, aJob("one replica")).created()).isTrue();
    assertThat(lineup.stats(queue).settings().durableReplicas()).isEqualTo(1);
    assertThat(lineup.stats(queue).ready()).isEqualTo(3);
  }

  @Test
  void aDurabilityOutOfRangeIsRefusedBeforeAnythingIsSent() {
    assertThatThrownBy(() -> Durability.replicas(-1))
        .isInstanceOfSatisfying(
            InvalidArgumentException.class,
            e -> assertThat(e.field()).isEqualTo("durability.replicas"));
    assertThatThrownBy(() -> Durability.replicas(1).within(Duration.ofMinutes(2)))
        .isInstanceOfSatisfying(
            InvalidArgumentException.class,
            e -> assertThat(e.field()).isEqualTo("durability.timeout"));
  }

  private static String readyKey(QueueName queue) {
    return "lu:" + KeySpace.hashTag(queue) + ":ready";
  }
}
