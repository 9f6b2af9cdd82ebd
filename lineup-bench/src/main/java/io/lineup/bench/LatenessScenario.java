package io.lineup.bench;

import io.lineup.bench.report.Figure;
import io.lineup.core.JobHandler;
import io.lineup.core.NewJob;
import io.lineup.core.QueueName;
import io.lineup.core.Worker;
import io.lineup.core.WorkerOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code late_ms_p50}, {@code late_ms_p99}, {@code late_ms_max}: {@link Counts#delayedJobs()}
 * delayed jobs due at even steps over {@link Counts#delaySpreadMs()}, the first {@link #LEAD_MS}
 * after publishing starts, while {@link #WORKERS} workers wait idle on the empty queue. Lateness of
 * a job = the moment its handler starts (this machine's clock, µs precision) − its due time (Redis
 * server clock, ms; the same machine, so the same clock). The measurement runs {@link
 * Counts#rounds()} times: p50 and p99 are the medians of the rounds' own, max the largest of all.
 */
final class LatenessScenario {
  /** Idle workers waiting on the queue. */
  static final int WORKERS = 2;

  /** Concurrency of each worker. */
  static final int WORKER_CONCURRENCY = 32;

  /** Time from the start of publishing to the first due time, in ms. */
  static final long LEAD_MS = 1_000;

  /** Longest wait for the workers to block on the empty queue before jobs are published. */
  static final Duration IDLE_TIMEOUT = Duration.ofSeconds(30);

  private LatenessScenario() {}

  static List<Figure> run(BenchContext context) {
    Counts counts = context.counts();
    // The warm-up has the measurement's shape: a shorter one left the leasing path half compiled,
    // and the compiler's work then showed up as stalls of several ms in the first measured second.
    int warmJobs = counts.delayedJobs();
    context.say("late_ms: warm-up, %d jobs over %d ms", warmJobs, counts.delaySpreadMs());
    measure(context, context.freshQueue("late-warmup"), warmJobs, counts.delaySpreadMs());

    int rounds = Math.max(1, counts.rounds());
    double[] p50 = new double[rounds];
    double[] p99 = new double[rounds];
    double max = 0;
    RedisProbe probe = RedisProbe.start(context);
    for (int r = 0; r < rounds; r++) {
      context.say(
          "late_ms: round %d of %d: %,d delayed jobs due over %,d ms, %d idle workers",
          r + 1, rounds, counts.delayedJobs(), counts.delaySpreadMs(), WORKERS);
      QueueName queue = context.freshQueue("late");
      // A latency figure: start it with the garbage of earlier scenarios collected, so one of this
      // JVM's young collections (7 to 25 ms here) does not land in the measured window.
      BenchContext.collectGarbage();
      Percentiles round =
          new Percentiles(measure(context, queue, counts.delayedJobs(), counts.delaySpreadMs()));
      p50[r] = round.at(50);
      p99[r] = round.at(99);
      max = Math.max(max, round.max());
      context.say(
          "late_ms: round %d of %d: p50 %.2f ms, p99 %.2f ms, max %.2f ms",
          r + 1, rounds, p50[r], p99[r], round.max());
    }
    long jobs = (long) rounds * counts.delayedJobs();
    RedisProbe.Cost cost = probe.finish("late_ms", jobs);
    return List.of(
        new Figure(
            "late_ms_p50",
            Rounds.median(p50),
            Figure.Unit.MILLISECONDS,
            cost.redisMicrosPerJob(),
            cost.benchMicrosPerJob(),
            jobs),
        new Figure(
            "late_ms_p99",
            Rounds.median(p99),
            Figure.Unit.MILLISECONDS,
            cost.redisMicrosPerJob(),
            cost.benchMicrosPerJob(),
            jobs),
        new Figure(
            "late_ms_max",
            max,
            Figure.Unit.MILLISECONDS,
            cost.redisMicrosPerJob(),
            cost.benchMicrosPerJob(),
            jobs));
  }

  /** Publishes {@code jobs} delayed jobs to idle workers; returns each job's lateness in ms. */
  private static double[] measure(BenchContext context, QueueName queue, int jobs, int spreadMs) {
    double[] lateness = new double[jobs];
    AtomicInteger handled = new AtomicInteger();
    CountDownLatch done = new CountDownLatch(jobs);
    JobHandler recordLateness =
        job -> {
          Instant now = Instant.now();
          double late =
              (now.getEpochSecond() * 1_000_000_000L
                      + now.getNano()
                      - job.dueAt().toEpochMilli() * 1_000_000L)
                  / 1e6;
          int slot = handled.getAndIncrement();
          if (slot < jobs) {
            lateness[slot] = late;
          }
          done.countDown();
          return null;
        };
    List<Worker> workers = new ArrayList<>();
    try {
      int blockedBefore = context.redis().blockedClients();
      for (int w = 0; w < WORKERS; w++) {
        workers.add(
            context
                .lineup()
                .worker(
                    queue,
                    recordLateness,
                    WorkerOptions.defaults().withConcurrency(WORKER_CONCURRENCY))
                .start());
      }
      awaitIdle(context, blockedBefore + WORKERS);
      publishDelayed(context, queue, jobs, spreadMs);
      long waitMs = LEAD_MS + spreadMs + 60_000;
      if (!done.await(waitMs, TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException(
            "late_ms: only "
                + handled.get()
                + " of "
                + jobs
                + " delayed jobs ran in "
                + waitMs
                + " ms");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted", e);
    } finally {
      workers.forEach(Worker::close);
      context.awaitNoLeases(queue);
      context.redis().dropQueue(queue);
    }
    if (handled.get() != jobs) {
      throw new IllegalStateException(
          "late_ms: " + handled.get() + " handler runs for " + jobs + " jobs (a job ran twice)");
    }
    return lateness;
  }

  /** Waits until the workers sit in a blocking wait on the queue, i.e. are idle for real. */
  private static void awaitIdle(BenchContext context, int blocked) {
    long deadline = System.nanoTime() + IDLE_TIMEOUT.toNanos();
    while (context.redis().blockedClients() < blocked) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("late_ms: the workers did not go idle in " + IDLE_TIMEOUT);
      }
      Pause.millis(5);
    }
  }

  /** Due times at even steps from now + {@link #LEAD_MS} over {@code spreadMs}, Redis clock. */
  private static void publishDelayed(
      BenchContext context, QueueName queue, int jobs, int spreadMs) {
    long first = context.redis().serverTimeMillis() + LEAD_MS;
    byte[] payload = Payloads.payload();
    List<NewJob> batch = new ArrayList<>();
    for (int i = 0; i < jobs; i++) {
      long due = first + (long) i * spreadMs / jobs;
      batch.add(NewJob.of(payload).runAt(Instant.ofEpochMilli(due)));
      if (batch.size() == BulkPublishScenario.JOBS_PER_CALL || i == jobs - 1) {
        context.lineup().publishAll(queue, batch);
        batch = new ArrayList<>();
      }
    }
  }
}
