package io.lineup.bench;

import io.lineup.bench.report.Figure;
import io.lineup.consumer.JobHandler;
import io.lineup.consumer.WorkerOptions;
import io.lineup.core.Schedules;
import io.lineup.core.Worker;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.ScheduleRun;
import io.lineup.core.model.ScheduleSpec;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code schedule_tick_late_ms_p99}, {@code schedule_job_start_late_ms_p99} and {@code
 * schedule_ticks_exact_share}: {@link ScheduleCounts#schedules()} schedules of one queue, each
 * {@code * * * * * *} (every second, on the second, UTC), from a whole second a little ahead for
 * {@link ScheduleCounts#seconds()} seconds, after an unmeasured round of {@link #WARM_UP_SECONDS}
 * ({@code start_at} and {@code end_at} bound them), fired by the bench's engine. Afterwards each
 * schedule's history gives, for every tick, when the engine decided it (its publish, on the Redis
 * clock) and what it did.
 *
 * <ul>
 *   <li>{@code schedule_tick_late_ms_p99}: the 99th percentile over all ticks of how late each
 *       tick's job was published, in ms: publish time − tick time on the Redis clock, 0 for a tick
 *       fired ahead of its time (the engine fires a tick up to 50 ms ahead, its job due at the
 *       tick).
 *   <li>{@code schedule_job_start_late_ms_p99}: the 99th percentile over all ticks of how late each
 *       tick's job started: the moment a {@link Worker} of the bench (concurrency {@link
 *       #WORKER_CONCURRENCY}, idle on the queue, a no-op handler) started it, less its tick. All
 *       the schedules' jobs of a second are due at the same millisecond: this is how long one
 *       worker takes to lease and start a thousand jobs at once, as much as the schedules.
 *   <li>{@code schedule_ticks_exact_share}: the share of the expected ticks (schedules × seconds)
 *       published exactly once: a tick missing from a history, or skipped, or published twice, or a
 *       queue holding another number of jobs than ticks, makes it less than 1.
 * </ul>
 */
final class ScheduleScenario {
  /** Time from the end of the upserts to the first tick, in ms: the driver plans ahead of it. */
  static final long LEAD_MS = 2_000;

  /**
   * Seconds of an unmeasured round first: the engine's paths compile in it (the first ticks of a
   * cold engine were 60 ms late).
   */
  static final int WARM_UP_SECONDS = 3;

  /** Jobs one lease of the bench's worker takes at most: every schedule's job of one tick. */
  static final int WORKER_CONCURRENCY = 1_000;

  /** Longest wait for the worker to start the last tick's jobs. */
  static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(30);

  /** Time after the last tick before the histories are read, in ms. */
  static final long SETTLE_MS = 1_500;

  private ScheduleScenario() {}

  static List<Figure> run(BenchContext context, ScheduleCounts counts) {
    context.say(
        "schedule_tick_late_ms_p99: warm-up, %,d schedules every second for %d s",
        counts.schedules(), WARM_UP_SECONDS);
    round(context, counts.schedules(), WARM_UP_SECONDS);
    context.say(
        "schedule_tick_late_ms_p99: %,d schedules every second for %d s",
        counts.schedules(), counts.seconds());
    return round(context, counts.schedules(), counts.seconds());
  }

  /** Ticks {@code n} schedules for {@code seconds} and measures them. */
  private static List<Figure> round(BenchContext context, int n, int seconds) {
    Schedules schedules = context.lineup().schedules();
    QueueName queue = context.freshQueue("schedules");
    // Each job's start, counted from its tick (in its id), as the handler sees it.
    Map<String, Double> started = new ConcurrentHashMap<>();
    AtomicLong repeats = new AtomicLong();
    JobHandler<LeasedJob> recordStart =
        job -> {
          Instant now = Instant.now();
          long tick = Long.parseLong(job.id().substring(job.id().lastIndexOf(':') + 1));
          double late = (now.getEpochSecond() * 1e9 + now.getNano() - tick * 1e6) / 1e6;
          if (started.putIfAbsent(job.id(), late) != null) {
            repeats.incrementAndGet();
          }
          return null;
        };
    Worker worker =
        context
            .lineup()
            .worker(
                queue, recordStart, WorkerOptions.defaults().withConcurrency(WORKER_CONCURRENCY))
            .start();
    // Every schedule starts at the same whole second, far enough ahead for the upserts.
    List<ScheduleSpec> specs = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      specs.add(
          ScheduleSpec.cron(String.format("tick-%05d", i), "* * * * * *", ZoneOffset.UTC)
              .payloadText("{\"n\":" + i + "}")
              .historySize(Math.min(ScheduleSpec.MAX_HISTORY, seconds + 10))
              .build());
    }
    Instant first =
        Instant.ofEpochMilli(((System.currentTimeMillis() + LEAD_MS) / 1_000 + 1) * 1_000);
    // The seconds from first to first + seconds - 1 tick: end_at is inclusive.
    Instant last = first.plusSeconds(seconds - 1);
    for (ScheduleSpec spec : specs) {
      schedules.upsert(queue, spec.toBuilder().startAt(first).endAt(last).build());
    }
    long upserted = System.currentTimeMillis();
    if (upserted > first.toEpochMilli() - 200) {
      throw new IllegalStateException(
          "the upserts took until "
              + (first.toEpochMilli() - upserted)
              + " ms before the first tick");
    }
    RedisProbe probe = RedisProbe.start(context);
    Pause.millis(last.toEpochMilli() + SETTLE_MS - System.currentTimeMillis());
    long expected = (long) n * seconds;
    long drainBy = System.nanoTime() + DRAIN_TIMEOUT.toNanos();
    while (started.size() < expected && System.nanoTime() < drainBy) {
      Pause.millis(10);
    }
    worker.close();
    RedisProbe.Cost cost = probe.finish("schedule_tick_late_ms_p99", expected);

    double[] late = new double[(int) expected];
    int published = 0;
    long exact = 0;
    long wrong = 0;
    long ahead = 0;
    for (ScheduleSpec spec : specs) {
      Set<Instant> ticks = new HashSet<>();
      Set<Instant> doubled = new HashSet<>();
      for (ScheduleRun run : schedules.history(queue, spec.name())) {
        if (run.outcome() != ScheduleRun.Outcome.PUBLISHED
            || run.tick().isBefore(first)
            || run.tick().isAfter(last)
            || !ticks.add(run.tick())) {
          doubled.add(run.tick());
          wrong++;
          continue;
        }
        if (run.publishedAt().isBefore(run.tick())) {
          ahead++;
        }
        if (published < late.length) {
          late[published++] =
              Math.max(0, Duration.between(run.tick(), run.publishedAt()).toNanos() / 1e6);
        }
      }
      ticks.removeAll(doubled);
      exact += ticks.size();
    }
    // Every tick's job started once: no job missing, none handled twice, none left in the line.
    long jobs =
        started.size()
            + context.lineup().stats(queue).ready()
            + context.lineup().stats(queue).delayed();
    long off = Math.abs(jobs - expected) + repeats.get();
    wrong += off;
    exact = Math.max(0, exact - off);
    double[] startLate = started.values().stream().mapToDouble(Double::doubleValue).toArray();
    for (ScheduleSpec spec : specs) {
      schedules.delete(queue, spec.name());
    }
    context.redis().dropQueue(queue);
    Percentiles publish = new Percentiles(Arrays.copyOf(late, Math.max(1, published)));
    Percentiles start = new Percentiles(startLate.length == 0 ? new double[] {0} : startLate);
    context.say(
        "schedule_tick_late_ms_p99: %,d of %,d ticks published and started once (%,d jobs, %,d"
            + " wrong); %,d fired ahead of their ticks, publish lateness p99 %.1f ms; start"
            + " lateness p50 %.1f ms, p99 %.1f ms, max %.1f ms",
        exact,
        expected,
        jobs,
        wrong,
        ahead,
        publish.at(99),
        start.at(50),
        start.at(99),
        start.max());
    return List.of(
        new Figure(
            "schedule_tick_late_ms_p99",
            publish.at(99),
            Figure.Unit.MILLISECONDS,
            cost.redisMicrosPerJob(),
            cost.benchMicrosPerJob(),
            expected),
        new Figure(
            "schedule_job_start_late_ms_p99",
            start.at(99),
            Figure.Unit.MILLISECONDS,
            cost.redisMicrosPerJob(),
            cost.benchMicrosPerJob(),
            expected),
        new Figure(
            "schedule_ticks_exact_share",
            (double) exact / expected,
            Figure.Unit.SHARE,
            cost.redisMicrosPerJob(),
            cost.benchMicrosPerJob(),
            expected));
  }
}
