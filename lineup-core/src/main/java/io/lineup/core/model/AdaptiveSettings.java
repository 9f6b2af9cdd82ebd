package io.lineup.core.model;

import java.time.Duration;

/**
 * An adaptive concurrency limit of a queue: the number of jobs leased at once follows the answers
 * of the service the jobs call, within {@code [min, max]}, and is shared by every engine on the
 * Redis (it lives in the queue's meta hash and only scripts move it). A gradient step on a
 * measurement window, with the headroom h = {@code targetLatency} ÷ the window's mean latency:
 * after a window at or under the target that used at least half the limit, the larger of limit + 1
 * and the window's peak in flight × min(h³, 2); after one above it, limit × max(h, {@code
 * decrease}), at least 1 less; on a 429 or 503, at once, limit × {@code decrease}. At most one
 * decrease per window. docs/adaptive.md explains it with an example.
 *
 * @param min the lowest limit, in jobs leased at once: {@value #MIN_LIMIT} to {@value #MAX_LIMIT}
 * @param max the highest limit, from {@code min} to {@value #MAX_LIMIT}
 * @param initial the limit a queue without one starts at, clamped to {@code [min, max]}
 * @param targetLatency the mean latency of a window above which the limit decreases: 1 ms to 15 min
 * @param window the measurement window: {@link #MIN_WINDOW} to {@link #MAX_WINDOW}
 * @param decrease the factor of a decrease on a 429 or 503 and the deepest cut of a slow window,
 *     {@value #MIN_DECREASE} to {@value #MAX_DECREASE} (a decrease is at least 1)
 * @param holdCap the longest a {@code Retry-After} holds the queue (no lease): 0 to 7 days
 * @throws InvalidArgumentException when a value is out of its range, naming it
 */
public record AdaptiveSettings(
    int min,
    int max,
    int initial,
    Duration targetLatency,
    Duration window,
    double decrease,
    Duration holdCap) {

  /** Lowest {@code min}. */
  public static final int MIN_LIMIT = 1;

  /** Highest {@code max}. */
  public static final int MAX_LIMIT = 10_000;

  /** Longest target latency: 15 min. */
  public static final Duration MAX_TARGET_LATENCY = Duration.ofMinutes(15);

  /** Shortest window: 100 ms. */
  public static final Duration MIN_WINDOW = Duration.ofMillis(100);

  /** Longest window: 10 min. */
  public static final Duration MAX_WINDOW = Duration.ofMinutes(10);

  /**
   * Shortest default window: 500 ms (the default is twice the target latency, at least this). Half
   * a second lets an endpoint answering in about 100 ms settle in a few seconds, and still holds 5
   * answers per request in flight; a window under 1 s is judged only once it holds {@value
   * #MIN_ANSWERS_SHORT_WINDOW} answers (its answers carry into the next until then).
   */
  public static final Duration MIN_DEFAULT_WINDOW = Duration.ofMillis(500);

  /** The fewest answers a window under 1 s is judged on (adaptive_report.lua's MIN_ANSWERS). */
  public static final int MIN_ANSWERS_SHORT_WINDOW = 5;

  /** Smallest decrease factor (halving). */
  public static final double MIN_DECREASE = 0.5;

  /** Largest decrease factor. */
  public static final double MAX_DECREASE = 0.95;

  /** Default decrease factor. */
  public static final double DEFAULT_DECREASE = 0.8;

  /** Longest hold cap: 7 days. */
  public static final Duration MAX_HOLD_CAP = Duration.ofDays(7);

  /** Default hold cap: 5 min. */
  public static final Duration DEFAULT_HOLD_CAP = Duration.ofMinutes(5);

  public AdaptiveSettings {
    if (min < MIN_LIMIT || min > MAX_LIMIT) {
      throw new InvalidArgumentException(
          "min", "must be from " + MIN_LIMIT + " to " + MAX_LIMIT + ", got " + min);
    }
    if (max < min || max > MAX_LIMIT) {
      throw new InvalidArgumentException(
          "max", "must be from min (" + min + ") to " + MAX_LIMIT + ", got " + max);
    }
    if (targetLatency == null
        || targetLatency.toMillis() < 1
        || targetLatency.compareTo(MAX_TARGET_LATENCY) > 0) {
      throw new InvalidArgumentException(
          "target_latency_ms", "must be from 1 ms to " + MAX_TARGET_LATENCY.toMillis() + " ms");
    }
    if (window == null || window.compareTo(MIN_WINDOW) < 0 || window.compareTo(MAX_WINDOW) > 0) {
      throw new InvalidArgumentException(
          "window_ms",
          "must be from " + MIN_WINDOW.toMillis() + " to " + MAX_WINDOW.toMillis() + " ms");
    }
    if (!(decrease >= MIN_DECREASE && decrease <= MAX_DECREASE)) {
      throw new InvalidArgumentException(
          "decrease", "must be from " + MIN_DECREASE + " to " + MAX_DECREASE + ", got " + decrease);
    }
    if (holdCap == null || holdCap.isNegative() || holdCap.compareTo(MAX_HOLD_CAP) > 0) {
      throw new InvalidArgumentException(
          "hold_cap_ms", "must be from 0 to " + MAX_HOLD_CAP.toMillis() + " ms");
    }
    initial = Math.max(min, Math.min(max, initial));
  }

  /**
   * Settings with the defaults for the rest: starting at {@code min}, a window of twice the target
   * latency (at least {@link #MIN_DEFAULT_WINDOW}, at most {@link #MAX_WINDOW}), a decrease of
   * {@value #DEFAULT_DECREASE} and a hold of at most {@link #DEFAULT_HOLD_CAP}.
   *
   * @throws InvalidArgumentException when a value is out of its range
   */
  public static AdaptiveSettings of(int min, int max, Duration targetLatency) {
    return new AdaptiveSettings(
        min,
        max,
        min,
        targetLatency,
        defaultWindow(targetLatency),
        DEFAULT_DECREASE,
        DEFAULT_HOLD_CAP);
  }

  /**
   * The default window for a target latency: twice it, within {@link #MIN_DEFAULT_WINDOW} and
   * {@link #MAX_WINDOW}.
   */
  public static Duration defaultWindow(Duration targetLatency) {
    Duration twice = targetLatency == null ? MIN_DEFAULT_WINDOW : targetLatency.multipliedBy(2);
    if (twice.compareTo(MIN_DEFAULT_WINDOW) < 0) {
      return MIN_DEFAULT_WINDOW;
    }
    return twice.compareTo(MAX_WINDOW) > 0 ? MAX_WINDOW : twice;
  }
}
