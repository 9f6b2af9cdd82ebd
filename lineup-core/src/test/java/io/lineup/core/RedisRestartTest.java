package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.aJob;
import static java.util.stream.Collectors.groupingBy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lineup.consumer.JobHandler;
import io.lineup.consumer.WorkerOptions;
import io.lineup.core.internal.store.KeySpace;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.JobState;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.Limits;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.PublishResult;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSettings;
import io.lineup.core.model.QueueStats;
import io.lineup.core.model.RedisUnavailableException;
import io.lineup.testing.RedisServerExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Redis goes away while a {@link Worker} is busy: the engine reconnects by itself, nothing acked is
 * delivered again and nothing unacked is lost. Redis runs with the append-only file on and {@code
 * appendfsync always}, so every write it confirmed survives a restart or a crash.
 *
 * <p>What the engine can promise: an ack is sent after the handler returns (riding on the next
 * lease call), so a job whose handler finished just before Redis went away may not be acked yet; if
 * its lease runs out before the ack gets through, the job is delivered again. That is the only
 * duplicate allowed. A job whose ack Redis confirmed is never leased again.
 */
class RedisRestartTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withAppendOnlyFile();

  /** Jobs per run: enough that the outage falls in the middle of steady leasing and acking. */
  static final int JOBS = 3000;

  static final int CONCURRENCY = 4;

  /** Simulated work per job; it paces the run so that the outage lands midway. */
  static final Duration WORK = Duration.ofMillis(3);

  /**
   * Lease length on the test queue: a job whose lease reply was lost in the outage is delivered
   * again after this.
   */
  static final Duration TIME_TO_RUN = Duration.ofSeconds(5);

  /** Longest wait for the run to settle; generous, the machine is shared. */
  static final Duration PATIENCE = Duration.ofMinutes(3);

  /** One call of the handler, recorded when it returned. */
  record Handling(String id, int attempt, String token, Instant leasedAt, long finishedNanos) {}

  /** What an outage may use while Redis is away. */
  record During(Lineup lineup, SideQueue side, Queue<Handling> handlings) {}

  /** Takes Redis away and brings it back. */
  @FunctionalInterface
  interface Outage {
    void happen(During during);
  }

  @Test
  void aWorkerCarriesOnThroughAGracefulRestartLosingNothingAndRedeliveringNothingAcked() {
    consumeThrough("graceful restart", during -> redis.process().restart());
  }

  @Test
  void aWorkerCarriesOnThroughACrashLosingNothingAndRedeliveringNothingAcked() {
    consumeThrough(
        "crash (SIGKILL) and start",
        during -> {
          int handledAtCrash = during.handlings().size();
          redis.process().kill();
          during.side().assertRefusedWhileRedisIsDown(during.lineup());
          // Nothing is handed out without Redis: only handlers already running may finish.
          await()
              .during(Duration.ofSeconds(1))
              .atMost(Duration.ofSeconds(20))
              .until(() -> during.handlings().size() <= handledAtCrash + CONCURRENCY);
          redis.process().start();
        });
  }

  private void consumeThrough(String outageName, Outage outage) {
    QueueName queue = aFreshQueue();
    SideQueue side = new SideQueue();
    Queue<Handling> handlings = new ConcurrentLinkedQueue<>();
    JobHandler<LeasedJob> handler =
        job -> {
          Thread.sleep(WORK);
          handlings.add(
              new Handling(
                  job.id(), job.attempt(), job.token(), job.leasedAt(), System.nanoTime()));
          return null;
        };
    try (Lineup lineup = Fixtures.anEngine(redis)) {
      lineup.configure(queue, QueueSettings.builder().timeToRun(TIME_TO_RUN).build());
      List<String> ids = publishJobs(lineup, queue);
      side.prepare(lineup);

      Set<String> ackedBeforeOutage;
      long backUpNanos;
      try (Worker worker =
          lineup
              .worker(queue, handler, WorkerOptions.defaults().withConcurrency(CONCURRENCY))
              .start()) {
        await()
            .atMost(PATIENCE)
            .pollInterval(Duration.ofMillis(5))
            .until(() -> handlings.size() >= JOBS / 4);
        ackedBeforeOutage = doneJobs(queue);

        outage.happen(new During(lineup, side, handlings));
        backUpNanos = System.nanoTime();

        // The same engine serves plain calls again, without being recreated.
        side.assertWorksAgain(lineup);
        await()
            .atMost(PATIENCE)
            .pollInterval(Duration.ofMillis(200))
            .ignoreExceptionsInstanceOf(RedisUnavailableException.class)
            .until(() -> unfinished(lineup.stats(queue)) == 0);
        assertThat(worker.failed()).isZero();
      }

      Map<String, List<Handling>> byId = handlings.stream().collect(groupingBy(Handling::id));

      // The outage really fell mid-run: some jobs were acked before it, some handled after it.
      assertThat(ackedBeforeOutage).isNotEmpty().hasSizeLessThan(JOBS);
      assertThat(ids).containsAll(ackedBeforeOutage);
      assertThat(handlings)
          .anySatisfy(h -> assertThat(h.finishedNanos()).isGreaterThan(backUpNanos));

      // Nothing unacked is lost: every job was handled and ended DONE, none died.
      assertThat(byId.keySet()).containsExactlyInAnyOrderElementsOf(ids);
      QueueStats stats = lineup.stats(queue);
      assertThat(unfinished(stats)).isZero();
      assertThat(stats.dead()).isZero();

      // Nothing acked is redelivered. A job acked (DONE in Redis) before the outage was handled
      // exactly once.
      assertThat(ackedBeforeOutage)
          .allSatisfy(id -> assertThat(byId.get(id)).as("handlings of %s", id).hasSize(1));
      // Redis confirmed exactly one ack per job (the counter moves only on a successful ack), so
      // each record's finish time is that ack, and no handled delivery was leased after it.
      assertThat(stats.counters())
          .containsEntry("published", (long) JOBS)
          .containsEntry("acked", (long) JOBS);
      long leases = 0;
      for (String id : ids) {
        JobInfo info = lineup.get(queue, id).orElseThrow();
        List<Handling> mine = byId.get(id);
        assertThat(info.state()).as("state of %s", id).isEqualTo(JobState.DONE);
        assertThat(mine)
            .as("handlings of %s", id)
            .allSatisfy(h -> assertThat(h.leasedAt()).isBeforeOrEqualTo(info.finishedAt()));
        // Each handling was its own delivery (no lease handed to the handler twice).
        assertThat(mine).extracting(Handling::attempt).doesNotHaveDuplicates();
        assertThat(mine).extracting(Handling::token).doesNotHaveDuplicates();
        assertThat(info.attempts()).isGreaterThanOrEqualTo(mine.size());
        leases += info.attempts();
      }
      // Every lease Redis recorded shows in some job's attempts: no delivery went unaccounted.
      assertThat(stats.counters()).containsEntry("leased", leases);

      // The only duplicates: jobs whose first handling finished before Redis was back, with an
      // ack that had not been confirmed when it went away.
      List<String> duplicates =
          byId.entrySet().stream()
              .filter(e -> e.getValue().size() > 1)
              .map(Map.Entry::getKey)
              .sorted()
              .toList();
      for (String id : duplicates) {
        Handling first =
            byId.get(id).stream().min(Comparator.comparingLong(Handling::finishedNanos)).get();
        assertThat(first.finishedNanos())
            .as("first handling of duplicate %s finished before Redis was back", id)
            .isLessThanOrEqualTo(backUpNanos);
        assertThat(ackedBeforeOutage).doesNotContain(id);
      }
      System.out.printf(
          "%s: %d jobs, %d acked before the outage, %d handled twice (ack not confirmed when Redis"
              + " went away), %d leases in all%n",
          outageName, JOBS, ackedBeforeOutage.size(), duplicates.size(), leases);
    }
  }

  private static List<String> publishJobs(Lineup lineup, QueueName queue) {
    List<String> ids = new ArrayList<>(JOBS);
    for (int from = 0; from < JOBS; from += Limits.MAX_BATCH) {
      List<NewJob> batch = new ArrayList<>();
      for (int i = from; i < Math.min(JOBS, from + Limits.MAX_BATCH); i++) {
        batch.add(aJob("job " + i).id("job-" + i));
      }
      lineup.publishAll(queue, batch).forEach(result -> ids.add(result.id()));
    }
    assertThat(ids).doesNotHaveDuplicates().hasSize(JOBS);
    return ids;
  }

  private static long unfinished(QueueStats stats) {
    return stats.ready() + stats.delayed() + stats.leased();
  }

  /**
   * Ids of the queue's finished records, read straight from Redis in one command. Only acks finish
   * jobs in this test, so these are the jobs whose ack Redis has confirmed (and, with {@code
   * appendfsync always}, written to disk before answering).
   */
  private static Set<String> doneJobs(QueueName queue) {
    String finished =
        Arrays.stream(KeySpace.queueKeys(queue))
            .map(key -> new String(key, StandardCharsets.UTF_8))
            .filter(key -> key.endsWith(":finished"))
            .findFirst()
            .orElseThrow();
    RedisClient client = RedisClient.create(redis.uri());
    try (StatefulRedisConnection<String, String> connection = client.connect()) {
      return new HashSet<>(connection.sync().zrange(finished, 0, -1));
    } finally {
      client.shutdown();
    }
  }

  /** Plain publish, lease and ack on a queue of its own, around the outage. */
  static final class SideQueue {
    private final QueueName queue = aFreshQueue();
    private LeasedJob heldAcrossOutage;

    /** Leases a job before the outage; its lease outlives the outage. */
    void prepare(Lineup lineup) {
      lineup.publish(queue, aJob("held across the outage"));
      heldAcrossOutage = lineup.lease(queue, 1, Duration.ZERO).jobs().get(0);
    }

    void assertRefusedWhileRedisIsDown(Lineup lineup) {
      // Wait until the engine has noticed the outage (a call sent just before it is resent
      // when Redis is back, so only calls after this point are refused outright).
      await()
          .atMost(PATIENCE)
          .until(() -> {
            try {
              lineup.ping();
              return false;
            } catch (RedisUnavailableException expected) {
              return true;
            }
          });
      assertThatThrownBy(() -> lineup.publish(queue, aJob("while Redis is down")))
          .isInstanceOf(RedisUnavailableException.class);
      assertThatThrownBy(() -> lineup.lease(queue, 1, Duration.ZERO))
          .isInstanceOf(RedisUnavailableException.class);
      assertThatThrownBy(() -> lineup.ack(heldAcrossOutage))
          .isInstanceOf(RedisUnavailableException.class);
      assertThatThrownBy(() -> lineup.stats(queue)).isInstanceOf(RedisUnavailableException.class);
    }

    void assertWorksAgain(Lineup lineup) {
      PublishResult after =
          await()
              .atMost(PATIENCE)
              .ignoreExceptionsInstanceOf(RedisUnavailableException.class)
              .until(() -> lineup.publish(queue, aJob("after the outage")), Objects::nonNull);
      assertThat(after.created()).isTrue();
      // The lease taken before the outage survived it and can still be acked.
      lineup.ack(heldAcrossOutage);
      LeasedJob next = lineup.lease(queue, 1, Duration.ofSeconds(5)).jobs().get(0);
      assertThat(next.id()).isEqualTo(after.id());
      lineup.ack(next);
      assertThat(lineup.get(queue, heldAcrossOutage.id()).orElseThrow().state())
          .isEqualTo(JobState.DONE);
      assertThat(lineup.get(queue, after.id()).orElseThrow().state()).isEqualTo(JobState.DONE);
      // Only the two jobs ever existed on this queue: nothing published while down slipped in.
      QueueStats stats = lineup.stats(queue);
      assertThat(stats.counters()).containsEntry("published", 2L).containsEntry("acked", 2L);
      assertThat(unfinished(stats)).isZero();
    }
  }
}
