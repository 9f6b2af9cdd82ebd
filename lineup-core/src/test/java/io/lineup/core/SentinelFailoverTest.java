package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lineup.core.model.Durability;
import io.lineup.core.model.JobState;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.LineupException;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueStats;
import io.lineup.core.model.RedisUnavailableException;
import io.lineup.core.model.ReplicationTimeoutException;
import io.lineup.redis.RedisProcess;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * One master, two replicas and three sentinels: the engine, pointed at the sentinels, follows a
 * failover after the master is killed; every job published with a replica's acknowledgement is
 * consumed, and the plain ones lost are counted.
 */
class SentinelFailoverTest {
  static final String GROUP = "mymaster";
  static final int JOBS = 1_000;

  static RedisProcess master;
  static final List<RedisProcess> replicas = new ArrayList<>();
  static final List<RedisProcess> sentinels = new ArrayList<>();

  @BeforeAll
  static void startAGroup() throws IOException {
    master = RedisProcess.builder().setting("repl-diskless-sync-delay", "0").build().start();
    for (int i = 0; i < 2; i++) {
      RedisProcess replica =
          RedisProcess.builder().setting("repl-diskless-sync-delay", "0").build().start();
      replicas.add(replica);
      replica.command("REPLICAOF 127.0.0.1 " + master.port());
    }
    for (int i = 0; i < 3; i++) {
      RedisProcess sentinel = RedisProcess.builder().sentinel().build().start();
      sentinels.add(sentinel);
      sentinel.command("SENTINEL MONITOR " + GROUP + " 127.0.0.1 " + master.port() + " 2");
      sentinel.command("SENTINEL SET " + GROUP + " down-after-milliseconds 1000");
      sentinel.command("SENTINEL SET " + GROUP + " failover-timeout 10000");
    }
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> {
          for (RedisProcess sentinel : sentinels) {
            if (!sentinel
                .command("INFO sentinel")
                .contains(
                    "status=ok,address=127.0.0.1:" + master.port() + ",slaves=2,sentinels=3")) {
              return false;
            }
          }
          return true;
        });
  }

  @AfterAll
  static void stopTheGroup() {
    sentinels.forEach(RedisProcess::close);
    replicas.forEach(RedisProcess::close);
    if (master != null) {
      master.close();
    }
  }

  private static String sentinelUri() {
    StringBuilder uri = new StringBuilder("redis-sentinel://");
    for (int i = 0; i < sentinels.size(); i++) {
      uri.append(i == 0 ? "" : ",").append("127.0.0.1:").append(sentinels.get(i).port());
    }
    return uri.append("/0#").append(GROUP).toString();
  }

  @Test
  void theEngineFollowsAFailoverAndLosesNoDurablyPublishedJob() {
    QueueName queue = aFreshQueue();
    Set<String> durable = ConcurrentHashMap.newKeySet();
    Set<String> plain = ConcurrentHashMap.newKeySet();
    Set<String> unconfirmed = ConcurrentHashMap.newKeySet();
    Set<String> acked = ConcurrentHashMap.newKeySet();
    AtomicInteger refused = new AtomicInteger();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<RuntimeException> consumerFailure = new AtomicReference<>();
    try (Lineup lineup =
        Lineup.connect(
            LineupOptions.builder(sentinelUri())
                .commandTimeout(Duration.ofSeconds(2))
                .maintenanceInterval(Duration.ofMillis(200))
                .build())) {
      Thread producer =
          Thread.ofVirtual()
              .start(() -> {
                for (int i = 0; i < JOBS && !stop.get(); i++) {
                  String id = "job-" + i;
                  boolean wantsReplica = i % 2 == 0;
                  while (!stop.get()) {
                    try {
                      lineup.publish(
                          queue,
                          // A lease whose answer the failover lost comes back after its
                          // time-to-run: short here, so the run does not wait 30 s for it.
                          NewJob.ofText(id).id(id).timeToRun(Duration.ofSeconds(2)),
                          wantsReplica ? Durability.replicas(1) : Durability.NONE);
                      (wantsReplica ? durable : plain).add(id);
                      break;
                    } catch (ReplicationTimeoutException e) {
                      unconfirmed.add(id);
                      break;
                    } catch (LineupException unavailableWhileFailingOver) {
                      refused.incrementAndGet();
                      sleep(100);
                    }
                  }
                }
              });
      Thread consumer =
          Thread.ofVirtual()
              .start(() -> {
                while (!stop.get()) {
                  try {
                    for (LeasedJob job : lineup.lease(queue, 50, Duration.ofMillis(200)).jobs()) {
                      lineup.ack(job);
                      acked.add(job.id());
                    }
                  } catch (LineupException e) {
                    sleep(100);
                  } catch (RuntimeException unexpected) {
                    consumerFailure.set(unexpected);
                    throw unexpected;
                  }
                }
              });

      await().atMost(Duration.ofMinutes(1)).until(() -> durable.size() + plain.size() >= JOBS / 3);
      int oldPort = master.port();
      master.kill();
      long killedAt = System.nanoTime();
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> !sentinels.get(0).command("INFO sentinel").contains(":" + oldPort + ","));
      System.out.printf(
          "Sentinel failover: a replica took over %.1f s after the master was killed%n",
          (System.nanoTime() - killedAt) / 1e9);
      try {
        producer.join(Duration.ofMinutes(2));
        System.out.printf(
            "Sentinel failover: publishing ended %.1f s after the kill%n",
            (System.nanoTime() - killedAt) / 1e9);
        await()
            .atMost(Duration.ofMinutes(1))
            .pollInterval(Duration.ofMillis(200))
            .failFast("the consumer failed", () -> consumerFailure.get() != null)
            .conditionEvaluationListener(condition -> {
              if (!condition.isSatisfied() && condition.getElapsedTimeInMS() % 5_000 < 200) {
                System.out.printf(
                    "Sentinel failover: after %d ms, %d durable jobs not acked yet%n",
                    condition.getElapsedTimeInMS(),
                    durable.stream().filter(id -> !consumed(lineup, queue, acked, id)).count());
              }
            })
            .until(() ->
                durable.stream().allMatch(id -> consumed(lineup, queue, acked, id))
                    && drained(lineup, queue));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        stop.set(true);
      }
      long lostPlain = plain.stream().filter(id -> !consumed(lineup, queue, acked, id)).count();
      System.out.printf(
          "Sentinel failover run: published durable %d, plain %d, unconfirmed %d; acked %d, and"
              + " %d more done whose ack's answer was lost; lost: durable %d, plain %d; refused"
              + " while failing over %d%n",
          durable.size(),
          plain.size(),
          unconfirmed.size(),
          acked.size(),
          durable.stream()
              .filter(id -> !acked.contains(id) && consumed(lineup, queue, acked, id))
              .count(),
          durable.stream().filter(id -> !consumed(lineup, queue, acked, id)).count(),
          lostPlain,
          refused.get());
      assertThat(durable).as("some publishes waited for a replica").isNotEmpty();
      assertThat(durable)
          .as("every job published with a replica's acknowledgement was consumed")
          .allMatch(id -> consumed(lineup, queue, acked, id));
      // The sentinels point the other replica at the new master only after the failover, and it
      // then syncs in full: on a loaded machine that can outlast the jobs' drain, so the check
      // waits for it rather than asking once. While the sentinels reconfigure the group they also
      // close the clients of the instances they change, so a publish can meet a dropped connection
      // (RedisUnavailableException) there too; the engine reconnects and the next attempt goes on.
      AtomicInteger attempt = new AtomicInteger();
      await("the new master has a replica again")
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(500))
          .ignoreExceptionsMatching(e ->
              e instanceof ReplicationTimeoutException || e instanceof RedisUnavailableException)
          .until(() ->
              lineup
                  .publish(
                      queue,
                      NewJob.ofText("after").id("after-" + attempt.incrementAndGet()),
                      Durability.replicas(1))
                  .created());
      System.out.printf(
          "Sentinel failover: the new master's replica acknowledged a publish at attempt %d%n",
          attempt.get());
    }
  }

  /**
   * Whether the consumer acknowledged the job: it saw the ack succeed, or the ack reached Redis and
   * only its answer was lost in the failover (the consumer then caught the error, and the job is
   * done in Redis and never leased again).
   */
  private static boolean consumed(Lineup lineup, QueueName queue, Set<String> acked, String id) {
    if (acked.contains(id)) {
      return true;
    }
    try {
      return lineup.get(queue, id).map(job -> job.state() == JobState.DONE).orElse(false);
    } catch (LineupException e) {
      return false;
    }
  }

  private static boolean drained(Lineup lineup, QueueName queue) {
    try {
      QueueStats stats = lineup.stats(queue);
      return stats.ready() + stats.delayed() + stats.leased() == 0;
    } catch (LineupException e) {
      return false;
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
