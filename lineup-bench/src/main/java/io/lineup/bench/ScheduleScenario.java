package io.lineup.bench;

import io.lineup.bench.report.Figure;
import io.lineup.core.Schedules;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.ScheduleRun;
import io.lineup.core.model.ScheduleSpec;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code schedule_tick_late_ms_p99} and {@code schedule_ticks_exact_share}: {@link
 * ScheduleCounts#schedules()} schedules of one queue, each {@code * * * * * *} (every second, on
 * the second, UTC), from a whole second a little ahead for {@link ScheduleCounts#seconds()}
 * seconds, after an unmeasured round of {@link #WARM_UP_SECONDS} ({@code start_at} and {@code
 * end_at} bound them), fired by the bench's engine. Afterwards each schedule's history gives, for
 * every tick, when the engine decided it (its publish, on the Redis clock) and what it did.
 *
 * <ul>
 *   <li>{@code schedule_tick_late_ms_p99}: the 99th percentile of publish time − tick time over all
 *       ticks, in ms (both on the Redis clock).
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
    RedisProbe.Cost cost = probe.finish("schedule_tick_late_ms_p99", expected);

    double[] late = new double[(int) expected];
    int published = 0;
    long exact = 0;
    long wrong = 0;
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
        if (published < late.length) {
          late[published++] =
              Math.max(0, Duration.between(run.tick(), run.publishedAt()).toNanos() / 1e6);
        }
      }
      ticks.removeAll(doubled);
      exact += ticks.size();
    }
    long jobs = context.lineup().stats(queue).ready() + context.lineup().stats(queue).delayed();
    if (jobs != expected) {
      wrong += Math.abs(jobs - expected);
      exact = Math.max(0, exact - Math.abs(jobs - expected));
    }
    for (ScheduleSpec spec : specs) {
      schedules.delete(queue, spec.name());
    }
    context.redis().dropQueue(queue);
    Percentiles p = new Percentiles(java.util.Arrays.copyOf(late, Math.max(1, published)));
    context.say(
        "schedule_tick_late_ms_p99: %,d of %,d ticks published once (%,d jobs in the queue, %,d"
            + " wrong); lateness p50 %.1f ms, p99 %.1f ms, max %.1f ms",
        exact, expected, jobs, wrong, p.at(50), p.at(99), p.max());
    return List.of(
        new Figure(
            "schedule_tick_late_ms_p99",
            p.at(99),
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
