package io.lineup.server.metrics;

import java.time.Duration;

/** The histogram buckets of the server's timers (Prometheus {@code le} labels). */
final class Buckets {
  private Buckets() {}

  /** HTTP request latency: 1 ms to 60 s (long-polls land in the top buckets). */
  static final Duration[] HTTP =
      millis(1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000, 60_000);

  /** Redis command latency: 0.1 ms to 1 s. */
  static final Duration[] REDIS =
      micros(100, 250, 500, 1000, 2500, 5000, 10_000, 25_000, 100_000, 250_000, 1_000_000);

  /** Lateness from due to leased: 1 ms to 60 s. */
  static final Duration[] LATENESS =
      millis(1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 5000, 15_000, 60_000);

  /** Processing time from lease to ack or nack: 10 ms to 1 h. */
  static final Duration[] PROCESSING =
      millis(
          10, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000, 60_000, 300_000, 900_000,
          3_600_000);

  private static Duration[] millis(long... values) {
    Duration[] durations = new Duration[values.length];
    for (int i = 0; i < values.length; i++) {
      durations[i] = Duration.ofMillis(values[i]);
    }
    return durations;
  }

  private static Duration[] micros(long... values) {
    Duration[] durations = new Duration[values.length];
    for (int i = 0; i < values.length; i++) {
      durations[i] = Duration.ofNanos(values[i] * 1000);
    }
    return durations;
  }
}
