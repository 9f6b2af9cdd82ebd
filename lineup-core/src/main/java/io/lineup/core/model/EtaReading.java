package io.lineup.core.model;

import java.time.Instant;
import java.util.Objects;

/**
 * One reading of a queue's line for an ETA: when it was read, how many jobs were ready, and the
 * estimator of that moment. {@code estimator().eta(ready())} is the ETA of a job put at the back of
 * the ready line then.
 *
 * @param readAt the reading's time by the engine's clock (Redis server time unless a manual clock
 *     is set)
 * @param ready jobs ready (due and waiting) at the reading
 * @param estimator the queue's ETA estimator at the reading
 */
public record EtaReading(Instant readAt, long ready, EtaEstimator estimator) {
  /**
   * Checks the values.
   *
   * @throws NullPointerException when {@code readAt} or {@code estimator} is null
   * @throws IllegalArgumentException when {@code ready} is negative
   */
  public EtaReading {
    Objects.requireNonNull(readAt, "readAt");
    Objects.requireNonNull(estimator, "estimator");
    if (ready < 0) {
      throw new IllegalArgumentException("ready must not be negative, got " + ready);
    }
  }
}
