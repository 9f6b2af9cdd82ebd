package io.lineup.server.consumers;

/**
 * Events counted over the last minute, in 60 one-second buckets: {@link #add} and {@link #total}
 * cost a few array accesses, and the memory is fixed whatever the rate. The total is exact to the
 * second: events of the second 60 seconds ago are dropped as a whole.
 */
final class MinuteCounter {
  /** Buckets, one per second of the window. */
  static final int SECONDS = 60;

  private final long[] counts = new long[SECONDS];
  private final long[] seconds = new long[SECONDS];

  /** Counts {@code n} events at {@code nowMs} (epoch ms). */
  synchronized void add(long nowMs, long n) {
    long second = nowMs / 1000;
    int i = (int) Math.floorMod(second, SECONDS);
    if (seconds[i] != second) {
      seconds[i] = second;
      counts[i] = 0;
    }
    counts[i] += n;
  }

  /** Events in the 60 seconds up to {@code nowMs}. */
  synchronized long total(long nowMs) {
    long second = nowMs / 1000;
    long sum = 0;
    for (int i = 0; i < SECONDS; i++) {
      if (second - seconds[i] < SECONDS) {
        sum += counts[i];
      }
    }
    return sum;
  }
}
