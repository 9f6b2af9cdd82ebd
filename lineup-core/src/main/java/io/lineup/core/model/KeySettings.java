package io.lineup.core.model;

import java.time.Duration;

/**
 * One fairness key's own settings in a fair queue; a null value takes the queue's {@code key_*}
 * setting (weight: 1). Set with {@link io.lineup.core.Fairness#configure}.
 *
 * @param weight the key's share of each turn: a key of weight w gets w jobs per turn to another's 1
 *     when both have jobs waiting; 1 to {@value #MAX_WEIGHT}
 * @param concurrency most jobs of the key leased at once; 0 = no limit
 * @param rate most leases of the key per {@code ratePeriod}, evenly spaced; 0 = no limit
 * @param ratePeriod the period of {@code rate}, 10 ms to a day
 * @param maxWaiting most jobs of the key waiting (ready, delayed or held by a pause); a publish
 *     past it is refused with {@link KeyBacklogFullException}; 0 = no limit
 * @param paused whether the key is paused: its jobs are not leased, other keys' are
 */
public record KeySettings(
    Integer weight,
    Integer concurrency,
    Integer rate,
    Duration ratePeriod,
    Integer maxWaiting,
    boolean paused) {
  /** Highest weight: a turn has this many tag units (docs/fairness.md). */
  public static final int MAX_WEIGHT = 100;

  /** Most of one key's concurrency limit. */
  public static final int MAX_CONCURRENCY = 1_000_000;

  /** Most of one key's rate, in leases per period. */
  public static final int MAX_RATE = 100_000;

  /** Most of one key's waiting jobs limit. */
  public static final int MAX_WAITING = 1_000_000_000;

  /** Settings that take every value from the queue, not paused. */
  public static final KeySettings QUEUE_DEFAULTS =
      new KeySettings(null, null, null, null, null, false);

  /**
   * Checks the values against their bounds.
   *
   * @throws InvalidArgumentException naming the first value out of bounds
   */
  public KeySettings {
    check("weight", weight, 1, MAX_WEIGHT);
    check("concurrency", concurrency, 0, MAX_CONCURRENCY);
    check("rate", rate, 0, MAX_RATE);
    check("maxWaiting", maxWaiting, 0, MAX_WAITING);
    if (ratePeriod != null
        && (ratePeriod.toMillis() < 10 || ratePeriod.compareTo(Duration.ofDays(1)) > 0)) {
      throw new InvalidArgumentException("ratePeriod", "must be 10 ms to a day");
    }
  }

  private static void check(String field, Integer value, int min, int max) {
    if (value != null && (value < min || value > max)) {
      throw new InvalidArgumentException(
          field, "must be between " + min + " and " + max + ", got " + value);
    }
  }

  /** The same settings, paused or not. */
  public KeySettings withPaused(boolean paused) {
    return new KeySettings(weight, concurrency, rate, ratePeriod, maxWaiting, paused);
  }
}
