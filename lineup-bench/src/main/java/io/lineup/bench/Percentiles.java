package io.lineup.bench;

import java.util.Arrays;

/** Percentiles of a set of samples, by the nearest-rank method. */
final class Percentiles {
  private final double[] sorted;

  /**
   * @throws IllegalArgumentException when there are no samples
   */
  Percentiles(double[] samples) {
    if (samples.length == 0) {
      throw new IllegalArgumentException("no samples");
    }
    this.sorted = samples.clone();
    Arrays.sort(sorted);
  }

  /** The smallest sample at or above {@code percent} % of all samples (0 < percent ≤ 100). */
  double at(double percent) {
    int rank = (int) Math.ceil(percent / 100.0 * sorted.length);
    return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
  }

  double max() {
    return sorted[sorted.length - 1];
  }
}
