package io.lineup.bench;

import java.util.List;

/**
 * When the requests open at an endpoint settle at its capacity after a change: the first moment
 * from which their average over the last {@value #AVERAGE_MS} ms stays within ±{@value
 * #BAND_PERCENT} % of the capacity for {@value #HOLD_MS} ms. Averaged, because a limiter that adds
 * one request at a time and cuts by a fraction (AIMD) saw-tooths around its point by design; held,
 * so that passing through the band on the way to overshoot does not count.
 */
final class Settling {
  /** Span of the moving average, in milliseconds. */
  static final long AVERAGE_MS = 1_000;

  /** How long the average must stay in the band, in milliseconds. */
  static final long HOLD_MS = 2_000;

  /** Half-width of the band around the capacity, in percent of it. */
  static final int BAND_PERCENT = 10;

  private Settling() {}

  /**
   * Milliseconds from {@code startNanos} to the moment the open requests settled, or -1 when they
   * did not settle with the hold ending by {@code endNanos}.
   *
   * @param samples samples of open requests, oldest first (any time span; those outside the step
   *     are ignored)
   * @param capacity the capacity of the step
   * @param startNanos when the step began ({@link System#nanoTime()})
   * @param endNanos when it ended
   */
  static long settleMillis(
      List<CapacityTarget.Sample> samples, int capacity, long startNanos, long endNanos) {
    List<CapacityTarget.Sample> step =
        samples.stream().filter(s -> s.nanos() >= startNanos && s.nanos() <= endNanos).toList();
    double[] average = new double[step.size()];
    for (int i = 0; i < step.size(); i++) {
      long from = step.get(i).nanos() - AVERAGE_MS * 1_000_000;
      double sum = 0;
      int n = 0;
      for (int j = i; j >= 0 && step.get(j).nanos() > from; j--) {
        sum += step.get(j).open();
        n++;
      }
      average[i] = sum / n;
    }
    double low = capacity * (100 - BAND_PERCENT) / 100.0;
    double high = capacity * (100 + BAND_PERCENT) / 100.0;
    for (int i = 0; i < step.size(); i++) {
      long holdUntil = step.get(i).nanos() + HOLD_MS * 1_000_000;
      if (holdUntil > endNanos) {
        return -1;
      }
      boolean held = true;
      for (int j = i; j < step.size() && step.get(j).nanos() <= holdUntil; j++) {
        if (average[j] < low || average[j] > high) {
          held = false;
          break;
        }
      }
      if (held) {
        return (step.get(i).nanos() - startNanos) / 1_000_000;
      }
    }
    return -1;
  }
}
