package io.lineup.core;

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

  /** Longest initial or maximum wait: one day, in milliseconds. */
  public static final long MAX_WAIT_MS = 24L * 3600 * 1000;

  /** The default: exponential from 1 s, capped at 5 min, 20 % jitter. */
  public static final Backoff DEFAULT =
      new Backoff(Kind.EXPONENTIAL, Duration.ofSeconds(1), Duration.ofMinutes(5), 0.2);

  /**
   * @throws InvalidArgumentException when a duration is negative or over a day, or jitter is
   *     outside 0..1
   */
  public Backoff {
    if (kind == null) {
      throw new InvalidArgumentException("backoff", "kind must be FIXED or EXPONENTIAL");
    }
    requireDuration("backoff.initial", initial);
    requireDuration("backoff.max", max);
    if (!(jitter >= 0 && jitter <= 1)) {
      throw new InvalidArgumentException(
          "backoff.jitter", "must be between 0 and 1, got " + jitter);
    }
  }

  private static void requireDuration(String field, Duration value) {
    if (value == null) {
      throw new InvalidArgumentException(field, "is required");
    }
    Checks.duration(field, value, 0, MAX_WAIT_MS);
  }
}
