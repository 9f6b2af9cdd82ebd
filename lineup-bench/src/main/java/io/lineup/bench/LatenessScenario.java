package io.lineup.bench;

import io.lineup.bench.report.Figure;
import io.lineup.consumer.JobHandler;
import io.lineup.consumer.WorkerOptions;
import io.lineup.core.Worker;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.QueueName;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code late_ms_p50}, {@code late_ms_p99}, {@code late_ms_max}: {@link Counts#delayedJobs()}
 * delayed jobs due at even steps over {@link Counts#delaySpreadMs()}, the first {@link
 * Shape#leadMs} after publishing starts, while {@link Shape#workers} workers wait idle on the empty
 * queue. Lateness of a job = the moment its handler starts (this machine's clock, µs precision) −
 * its due time (Redis server clock, ms; the same machine, so the same clock). The measurement runs
 * {@link Counts#rounds()} times: p50 and p99 are the medians of the rounds' own, max the largest of
 * all.
 *
 * <p>{@code late_ms_p50_10k}, {@code late_ms_p99_10k}, {@code late_ms_max_10k}: the same with
 * {@link Counts#delayedJobs10k()} jobs over {@link Counts#delaySpreadMs10k()} (10,000 due per
 * second in a full run) and one worker of concurrency 256 ({@link #TEN_K}).
 */
final class LatenessScenario {
  /**
   * How a lateness measurement is set up.
   *
   * @param suffix appended to the figure names ({@code late_ms_p99} + suffix)
   * @param workers idle workers waiting on the queue
   * @param concurrency concurrency of each worker
   * @param leadMs time from the start of publishing to the first due time, in ms: longer than
   *     publishing all the jobs takes, so none is due before it is published
   * @param publishers bulk publish calls at once
   */
  record Shape(String suffix, int workers, int concurrency, long leadMs, int publishers) {}

  /** {@code late_ms_*}: 2 workers of concurrency 32, the first job due 1 s after publishing. */
  static final Shape TWO_K = new Shape("", 2, 32, 1_000, 1);

  /**
   * {@code late_ms_*_10k}: one worker of concurrency 256; 100,000 jobs take about a second to
   * publish on the reference machine (8 bulk calls at once), so the first is due 3 s after.
   */
  static final Shape TEN_K = new Shape("_10k", 1, 256, 3_000, BulkPublishScenario.IN_FLIGHT);

  /** Compile time in a warm-up pass below which the compilers count as settled, in ms. */
  static final long COMPILER_SETTLED_MS = 50;

  /**
   * Longest the warm-up passes go on before the rounds start, compilers settled or not. A smoke run
   * makes one pass: its figures mean nothing, and settling took 30 of its 100 s.
   */
  static final Duration WARM_UP_BUDGET = Duration.ofSeconds(40);

  /** Longest wait for the workers to block on the empty queue before jobs are published. */
  static final Duration IDLE_TIMEOUT = Duration.ofSeconds(30);

  private LatenessScenario() {}

  /** The {@code late_ms_*} figures. */
  static List<Figure> run(BenchContext context) {
    Counts counts = context.counts();
    return run(context, TWO_K, counts.delayedJobs(), counts.delaySpreadMs());
  }

  /** The {@code late_ms_*_10k} figures. */
  static List<Figure> runTenK(BenchContext context) {
    Counts counts = context.counts();
    return run(context, TEN_K, counts.delayedJobs10k(), counts.delaySpreadMs10k());
  }

  private static List<Figure> run(BenchContext context, Shape shape, int jobCount, int spreadMs) {
    Counts counts = context.counts();
    String name = "late_ms" + shape.suffix();
    warmUp(context, shape, name, jobCount, spreadMs);

    int rounds = Math.max(1, counts.rounds());
    double[] p50 = new double[rounds];
    double[] p99 = new double[rounds];
    double max = 0;
    RedisProbe probe = RedisProbe.start(context);
    for (int r = 0; r < rounds; r++) {
      context.say(
          "%s: round %d of %d: %,d delayed jobs due over %,d ms, %d idle workers of %d",
          name, r + 1, rounds, jobCount, spreadMs, shape.workers(), shape.concurrency());
      QueueName queue = context.freshQueue("late");
      // A latency figure: start it with the garbage of earlier scenarios collected, so one of this
      // JVM's young collections (7 to 25 ms here) does not land in the measured window.
      BenchContext.collectGarbage();
      Percentiles round = new Percentiles(measure(context, shape, queue, jobCount, spreadMs));
      p50[r] = round.at(50);
      p99[r] = round.at(99);
      max = Math.max(max, round.max());
      context.say(
          "%s: round %d of %d: p50 %.2f ms, p99 %.2f ms, max %.2f ms",
          name, r + 1, rounds, p50[r], p99[r], round.max());
    }
    long jobs = (long) rounds * jobCount;
    RedisProbe.Cost cost = probe.finish(name, jobs);
    return List.of(
        new Figure(
            "late_ms_p50" + shape.suffix(),
            Rounds.median(p50),
            Figure.Unit.MILLISECONDS,
            cost.redisMicrosPerJob(),
            cost.benchMicrosPerJob(),
            jobs),
        new Figure(
            "late_ms_p99" + shape.suffix(),
            Rounds.median(p99),
            Figure.Unit.MILLISECONDS,
            cost.redisMicrosPerJob(),
            cost.benchMicrosPerJob(),
            jobs),
        new Figure(
            "late_ms_max" + shape.suffix(),
            max,
            Figure.Unit.MILLISECONDS,
            cost.redisMicrosPerJob(),
            cost.benchMicrosPerJob(),
            jobs));
  }

  /**
   * Warm-up passes of the measurement's own shape until the JIT compilers have settled: a pass in
   * which they compiled for less than {@link #COMPILER_SETTLED_MS} ms, or {@link #WARM_UP_BUDGET}
   * spent. At a job a millisecond the leasing and waiting paths reach the optimizing compiler's
   * thresholds only after several passes; its work on the other core (of two) then showed up as
   * stalls of a few ms in the measured rounds, which a long-running consumer no longer has.
   */
  private static void warmUp(
      BenchContext context, Shape shape, String name, int jobCount, int spreadMs) {
    CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
    boolean timed = compiler != null && compiler.isCompilationTimeMonitoringSupported();
    Duration budget = context.counts().mode().equals("smoke") ? Duration.ZERO : WARM_UP_BUDGET;
    long budgetEnds = System.nanoTime() + budget.toNanos();
    int pass = 0;
    while (true) {
      pass++;
      long compiledBefore = timed ? compiler.getTotalCompilationTime() : 0;
      measure(context, shape, context.freshQueue("late-warmup"), jobCount, spreadMs);
      long compiledMs = timed ? compiler.getTotalCompilationTime() - compiledBefore : 0;
      context.say(
          "%s: warm-up pass %d, %,d jobs over %,d ms: the compilers worked %,d ms",
          name, pass, jobCount, spreadMs, compiledMs);
      if (!timed || compiledMs < COMPILER_SETTLED_MS || System.nanoTime() > budgetEnds) {
        return;
      }
    }
  }

  /** Publishes {@code jobs} delayed jobs to idle workers; returns each job's lateness in ms. */
  private static double[] measure(
      BenchContext context, Shape shape, QueueName queue, int jobs, int spreadMs) {
    double[] lateness = new double[jobs];
    AtomicInteger handled = new AtomicInteger();
    CountDownLatch done = new CountDownLatch(jobs);
    JobHandler<LeasedJob> recordLateness =
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
      for (int w = 0; w < shape.workers(); w++) {
        workers.add(
            context
                .lineup()
                .worker(
                    queue,
                    recordLateness,
                    WorkerOptions.defaults().withConcurrency(shape.concurrency()))
                .start());
      }
      awaitIdle(context, blockedBefore + shape.workers());
      long publishStart = System.nanoTime();
      publishDelayed(context, shape, queue, jobs, spreadMs);
      context.say(
          "late_ms%s: published %,d jobs in %,d ms (the first is due %,d ms after the start)",
          shape.suffix(), jobs, (System.nanoTime() - publishStart) / 1_000_000, shape.leadMs());
      long waitMs = shape.leadMs() + spreadMs + 60_000;
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

  /**
   * Due times at even steps from now + {@link Shape#leadMs} over {@code spreadMs}, Redis clock, in
   * bulk calls of {@link BulkPublishScenario#JOBS_PER_CALL}, {@link Shape#publishers} at once.
   */
  private static void publishDelayed(
      BenchContext context, Shape shape, QueueName queue, int jobs, int spreadMs) {
    long first = context.redis().serverTimeMillis() + shape.leadMs();
    byte[] payload = Payloads.payload();
    int per = BulkPublishScenario.JOBS_PER_CALL;
    InFlight.run(
        (jobs + per - 1) / per,
        shape.publishers(),
        call -> {
          List<NewJob> batch = new ArrayList<>(per);
          for (int i = call * per; i < Math.min(jobs, (call + 1) * per); i++) {
            long due = first + (long) i * spreadMs / jobs;
            batch.add(NewJob.of(payload).runAt(Instant.ofEpochMilli(due)));
          }
          context.lineup().publishAll(queue, batch);
        });
  }
}
