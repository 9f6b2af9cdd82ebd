package io.lineup.core.model;

import java.time.Duration;
import java.util.Objects;

/**
 * An estimated wait: the likeliest value and a band around it, so a page can say "about 2 minutes
 * (1 to 3)". Made by {@link EtaEstimator}; docs/eta.md gives the formula.
 *
 * @param point the estimated wait
 * @param low the shortest wait the recent service makes plausible; never more than {@code point}
 * @param high the longest wait the recent service makes plausible; never less than {@code point}
 */
public record Eta(Duration point, Duration low, Duration high) {
  /**
   * Checks the band.
   *
   * @throws NullPointerException when a value is null
   * @throws IllegalArgumentException when a value is negative or the band does not hold the point
   */
  public Eta {
    Objects.requireNonNull(point, "point");
    Objects.requireNonNull(low, "low");
    Objects.requireNonNull(high, "high");
    if (low.isNegative() || low.compareTo(point) > 0 || point.compareTo(high) > 0) {
      throw new IllegalArgumentException(
          "An ETA needs 0 <= low <= point <= high, got " + low + ", " + point + ", " + high);
    }
  }
}
