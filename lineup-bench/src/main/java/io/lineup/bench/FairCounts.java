package io.lineup.bench;

import io.lineup.bench.report.BenchReport;

/**
 * The sizes of the fair queue figures, by the run's mode.
 *
 * @param consumeJobs jobs drained per round of {@code fair_consume_per_s} (and of the plain queue
 *     beside it)
 * @param consumeKeys fairness keys those jobs are spread over, at random
 * @param shareLeases leases counted for {@code fair_share_error}
 * @param bigBacklog jobs of the one big key behind which {@code fair_wait_small_key_ms_p99}'s small
 *     key publishes
 * @param smallRepeats small-key jobs timed for {@code fair_wait_small_key_ms_p99}
 * @param rankJobs jobs waiting for {@code fair_rank_us_p99} and the bytes figures
 * @param rankKeys fairness keys those jobs are spread over, at random
 * @param rankLookups position lookups timed for {@code fair_rank_us_p99}
 */
record FairCounts(
    int consumeJobs,
    int consumeKeys,
    int shareLeases,
    int bigBacklog,
    int smallRepeats,
    int rankJobs,
    int rankKeys,
    int rankLookups) {
  /** The sizes for a mode of {@link Counts}: {@code full}, {@code quick} or {@code smoke}. */
  static FairCounts of(String mode) {
    return switch (mode) {
      case "full" ->
          new FairCounts(200_000, 1_000, 100_000, 200_000, 100, 1_000_000, 10_000, 20_000);
      case "quick" -> new FairCounts(50_000, 1_000, 20_000, 50_000, 100, 100_000, 1_000, 5_000);
      default -> new FairCounts(2_000, 100, 1_000, 2_000, 10, 2_000, 100, 200);
    };
  }

  /** The counts by name, for the report. */
  void addTo(BenchReport report) {
    report.count("fair_consume_jobs", consumeJobs);
    report.count("fair_consume_keys", consumeKeys);
    report.count("fair_share_leases", shareLeases);
    report.count("fair_big_backlog", bigBacklog);
    report.count("fair_small_repeats", smallRepeats);
    report.count("fair_rank_jobs", rankJobs);
    report.count("fair_rank_keys", rankKeys);
  }
}
