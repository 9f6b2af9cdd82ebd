package io.lineup.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads what Redis spent on the measured phase of a scenario: its CPU time ({@code INFO cpu}), the
 * bench JVM's CPU time, and, with {@code --commandstats}, the calls and time of each command
 * ({@code INFO commandstats}, before and after, nothing reset), printed as a per-job breakdown.
 * Commands run inside a script are counted under their own names as well as in the script's EVALSHA
 * time.
 */
final class RedisProbe {
  /** Commands shown in a breakdown, the most expensive first. */
  static final int BREAKDOWN_LINES = 16;

  private final BenchContext context;
  private final long cpuBefore;
  private final long benchCpuBefore;
  private final Map<String, BenchRedis.CommandStat> statsBefore;

  private RedisProbe(BenchContext context) {
    this.context = context;
    this.statsBefore = context.commandStats() ? context.redis().commandStats() : Map.of();
    this.cpuBefore = context.redis().cpuMicros();
    this.benchCpuBefore = benchCpuMicros();
  }

  /** CPU time this JVM has used (all threads), in µs. */
  static long benchCpuMicros() {
    var os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
      return sun.getProcessCpuTime() / 1_000;
    }
    return 0;
  }

  /** Redis and bench CPU per job of a measured phase, in µs. */
  record Cost(double redisMicrosPerJob, double benchMicrosPerJob) {}

  /**
   * Starts reading at the beginning of a measured phase, once Redis has finished freeing the queues
   * dropped before it (that work runs on a Redis background thread and would otherwise be counted,
   * and compete for the cores, in this phase).
   */
  static RedisProbe start(BenchContext context) {
    context.redis().awaitLazyFree();
    return new RedisProbe(context);
  }

  /**
   * Ends the reading: Redis and bench CPU µs per job, and the breakdown when asked for.
   *
   * @param figure the figure measured, for the breakdown's title
   * @param jobs jobs (or calls, or lookups) of the measured phase
   */
  Cost finish(String figure, long jobs) {
    long benchCpuAfter = benchCpuMicros();
    long cpuAfter = context.redis().cpuMicros();
    if (context.commandStats()) {
      printBreakdown(figure, jobs, context.redis().commandStats());
    }
    double perJob = Math.max(1, jobs);
    return new Cost((cpuAfter - cpuBefore) / perJob, (benchCpuAfter - benchCpuBefore) / perJob);
  }

  private void printBreakdown(String figure, long jobs, Map<String, BenchRedis.CommandStat> after) {
    record Line(String command, long calls, long micros) {}
    List<Line> lines = new ArrayList<>();
    after.forEach((command, stat) -> {
      BenchRedis.CommandStat before =
          statsBefore.getOrDefault(command, new BenchRedis.CommandStat(0, 0));
      long calls = stat.calls() - before.calls();
      if (calls > 0) {
        lines.add(new Line(command, calls, stat.micros() - before.micros()));
      }
    });
    lines.sort((a, b) -> Long.compare(b.micros(), a.micros()));
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "[bench] commandstats of %s (%,d jobs): command, calls/job, µs/call, µs/job%n",
            figure,
            jobs));
    for (Line line : lines.subList(0, Math.min(BREAKDOWN_LINES, lines.size()))) {
      out.append(
          String.format(
              Locale.ROOT,
              "[bench]   %-18s %10.3f %9.2f %9.2f%n",
              line.command(),
              line.calls() / (double) jobs,
              line.micros() / (double) line.calls(),
              line.micros() / (double) jobs));
    }
    context.progress().print(out);
  }
}
