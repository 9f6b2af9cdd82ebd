package io.lineup.bench;

import io.lineup.bench.report.BenchReport;

/**
 * The sizes of the schedule figures, by the run's mode.
 *
 * @param schedules schedules of {@code schedule_tick_late_ms_p99}, each ticking every second
 * @param seconds how many seconds they tick
 */
record ScheduleCounts(int schedules, int seconds) {
  /** The sizes for a mode of {@link Counts}: {@code full}, {@code quick} or {@code smoke}. */
  static ScheduleCounts of(String mode) {
    return switch (mode) {
      case "full" -> new ScheduleCounts(1_000, 60);
      case "quick" -> new ScheduleCounts(1_000, 20);
      default -> new ScheduleCounts(20, 3);
    };
  }

  /** The counts by name, for the report. */
  void addTo(BenchReport report) {
    report.count("schedules", schedules);
    report.count("schedule_seconds", seconds);
  }
}
