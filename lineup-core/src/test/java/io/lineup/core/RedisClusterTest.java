package io.lineup.core;

import static io.lineup.core.Fixtures.aDelayedJob;
import static io.lineup.core.Fixtures.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.cluster.SlotHash;
import io.lineup.core.internal.store.KeySpace;
import io.lineup.testing.RedisClusterExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class RedisClusterTest {
  @RegisterExtension static RedisClusterExtension cluster = RedisClusterExtension.threeMasters();
  static Lineup lineup;

  @BeforeAll
  static void connect() {
    lineup =
        Lineup.connect(
            LineupOptions.builder(cluster.uri())
                .maintenanceInterval(Duration.ofMillis(100))
                .build());
  }

  @AfterAll
  static void close() {
    lineup.close();
  }

  /** Queues whose slots fall on three different nodes (the slots are split in thirds). */
  static List<QueueName> queuesOnEveryNode() {
    List<QueueName> found = new ArrayList<>();
    boolean[] covered = new boolean[3];
    while (found.size() < 3) {
      QueueName queue = Fixtures.aFreshQueue();
      int third =
          SlotHash.getSlot(KeySpace.hashTag(queue).getBytes(StandardCharsets.UTF_8)) * 3 / 16384;
      if (!covered[third]) {
        covered[third] = true;
        found.add(queue);
      }
    }
    return found;
  }

  @Test
  void queuesOnEveryNodePublishLeaseAckAndListThemselves() {
    for (QueueName queue : queuesOnEveryNode()) {
      PublishResult published = lineup.publish(queue, aJob("on " + queue).priority(3));
      assertThat(published.position()).isZero();
      LeasedJob job = lineup.lease(queue, 1, Duration.ofSeconds(1)).jobs().get(0);
      assertThat(job.id()).isEqualTo(published.id());
      lineup.ack(job, "ok".getBytes(StandardCharsets.UTF_8));
      assertThat(lineup.get(queue, job.id()).orElseThrow().state()).isEqualTo(JobState.DONE);
      assertThat(lineup.queues()).contains(queue);
    }
  }

  @Test
  void aConsumerWaitingOnQueuesOfThreeNodesGetsAJobPublishedLaterWithinMilliseconds()
      throws Exception {
    List<QueueName> queues = queuesOnEveryNode();
    var executor = Executors.newVirtualThreadPerTaskExecutor();
    Future<Leases> waiting = executor.submit(() -> lineup.lease(queues, 1, Duration.ofSeconds(10)));
    Thread.sleep(300);
    long published = System.nanoTime();
    String id = lineup.publish(queues.get(2), aJob("late arrival")).id();
    Leases leases = waiting.get();
    long tookMs = Duration.ofNanos(System.nanoTime() - published).toMillis();
    assertThat(leases.jobs()).extracting(LeasedJob::id).containsExactly(id);
    System.out.printf("Cluster: a waiting multi-queue consumer got the job in %d ms%n", tookMs);
    assertThat(tookMs).isLessThan(1000);
  }

  @Test
  void delayedJobsAndAWorkerRunOnAClusterQueue() {
    QueueName queue = queuesOnEveryNode().get(1);
    String delayed = lineup.publish(queue, aDelayedJob("later", Duration.ofMillis(300))).id();
    for (int i = 0; i < 50; i++) {
      lineup.publish(queue, aJob("now " + i));
    }
    try (Worker worker = lineup.worker(queue, job -> null, WorkerOptions.defaults()).start()) {
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> lineup.stats(queue).counters().getOrDefault("acked", 0L) == 51);
    }
    assertThat(lineup.get(queue, delayed).orElseThrow().state()).isEqualTo(JobState.DONE);
  }
}
