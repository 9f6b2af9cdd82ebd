package io.lineup.bench;

import io.lineup.bench.report.BenchReport;

/**
 * The sizes of the adaptive dispatch and deadline figures, by the run's mode.
 *
 * @param stepSeconds how long each capacity of the step schedule lasts, in seconds; longer than the
 *     settle target (10 s) in a full and a quick run, since a step that never settles counts as its
 *     whole length
 * @param deadlineSubmitSeconds how long tasks with deadlines are submitted, in seconds
 * @param deadlineMinMs the nearest deadline drawn, in milliseconds after the submit
 * @param deadlineMaxMs the farthest deadline drawn, in milliseconds after the submit
 */
record AdaptiveCounts(
    int stepSeconds, int deadlineSubmitSeconds, long deadlineMinMs, long deadlineMaxMs) {
  /** The sizes for a mode of {@link Counts}: {@code full}, {@code quick} or {@code smoke}. */
  static AdaptiveCounts of(String mode) {
    return switch (mode) {
      case "full" -> new AdaptiveCounts(30, 60, 1_000, 30_000);
      case "quick" -> new AdaptiveCounts(15, 20, 1_000, 30_000);
      default -> new AdaptiveCounts(4, 4, 1_000, 5_000);
    };
  }

  /** The counts by name, for the report. */
  void addTo(BenchReport report) {
    report.count("adaptive_step_s", stepSeconds);
    report.count("deadline_submit_s", deadlineSubmitSeconds);
    report.count("deadline_min_ms", deadlineMinMs);
    report.count("deadline_max_ms", deadlineMaxMs);
  }
}
