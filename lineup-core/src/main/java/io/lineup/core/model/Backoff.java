package io.lineup.core.model;

import java.time.Duration;

/**
 * How long a failed job waits before its next attempt, when the nack names no delay.
 *
 * <p>Attempt n waits {@code initial} (FIXED) or {@code initial * 2^(n-1)} (EXPONENTIAL), capped at
 * {@code max}, then shortened by a random fraction up to {@code jitter} so that jobs that failed
 * together do not retry together.
 *
 * @param kind FIXED or EXPONENTIAL
 * @param initial the first wait
 * @param max the longest wait
 * @param jitter 0 to 1
 */
public record Backoff(Kind kind, Duration initial, Duration max, double jitter) {
  /** Shape of the waits. */
  public enum Kind {
    FIXED,
    EXPONENTIAL
  }

  /**
   * Longest initial or maximum wait: one day, in milliseconds ({@link QueueSetting#BACKOFF_MAX}).
   */
  public static final long MAX_WAIT_MS = QueueSetting.BACKOFF_MAX.max();

  /**
   * The default: exponential from 1 s, capped at 5 min, 20 % jitter (the defaults of the {@code
   * BACKOFF_*} settings of {@link QueueSetting}).
   */
  public static final Backoff DEFAULT = QueueSetting.defaults().backoff();

  /**
   * Checks each part against its {@link QueueSetting} ({@code BACKOFF_KIND}, {@code
   * BACKOFF_INITIAL}, {@code BACKOFF_MAX}, {@code BACKOFF_JITTER}).
   *
   * @throws InvalidArgumentException naming {@code backoff.kind}, {@code backoff.initial}, {@code
   *     backoff.max} or {@code backoff.jitter} when the kind or a duration is missing, a duration
   *     is negative or over a day, or jitter is outside 0..1
   */
  public Backoff {
    QueueSetting.BACKOFF_KIND.check(kind);
    QueueSetting.BACKOFF_INITIAL.check(initial);
    QueueSetting.BACKOFF_MAX.check(max);
    QueueSetting.BACKOFF_JITTER.check(jitter);
  }
}
