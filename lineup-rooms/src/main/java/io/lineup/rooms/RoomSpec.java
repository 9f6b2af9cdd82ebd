package io.lineup.rooms;

import io.lineup.core.model.InvalidArgumentException;
import java.util.Locale;

/**
 * The settings of a waiting room. Every limit and default is named here and in
 * docs/waiting-room.md.
 *
 * @param maxActive most passes valid at once, 1 to {@value #MAX_ACTIVE}
 * @param admitPerMinute most admissions in any sliding minute, 0 (no limit) to {@value
 *     #MAX_ADMIT_PER_MINUTE}
 * @param passTtlMs how long a pass is valid, {@value #MIN_PASS_TTL_MS} to {@value #MAX_PASS_TTL_MS}
 *     ms
 * @param renewable whether a pass holder may renew its pass (for another {@code passTtlMs})
 * @param method how the line is ordered and what happens when full
 * @param eventStartAt when a scheduled event opens (epoch ms), or 0 for none
 * @param graceMs a waiting ticket not polled within this long loses its place, {@value
 *     #MIN_GRACE_MS} to {@value #MAX_GRACE_MS} ms
 * @param suspended whether admissions are stopped
 */
public record RoomSpec(
    int maxActive,
    int admitPerMinute,
    long passTtlMs,
    boolean renewable,
    Method method,
    long eventStartAt,
    long graceMs,
    boolean suspended) {

  /** Largest {@code max_active}. */
  public static final int MAX_ACTIVE = 1_000_000;

  /** Largest {@code admit_per_minute}. */
  public static final int MAX_ADMIT_PER_MINUTE = 100_000;

  /** Shortest pass lifetime: 1 s. */
  public static final long MIN_PASS_TTL_MS = 1_000;

  /** Longest pass lifetime: 24 h. */
  public static final long MAX_PASS_TTL_MS = 86_400_000;

  /** Default pass lifetime: 10 minutes. */
  public static final long DEFAULT_PASS_TTL_MS = 600_000;

  /** Shortest abandonment grace: 1 s. */
  public static final long MIN_GRACE_MS = 1_000;

  /** Longest abandonment grace: 1 h. */
  public static final long MAX_GRACE_MS = 3_600_000;

  /** Default abandonment grace: 5 minutes, as Cloudflare holds an abandoned place. */
  public static final long DEFAULT_GRACE_MS = 300_000;

  /** How the line is kept. */
  public enum Method {
    /** First come, first served within a priority. */
    FIFO,
    /** Those who joined before the event start in a random order, then FIFO. */
    RANDOM,
    /** Everyone is admitted at once, without limits (the room is open). */
    PASSTHROUGH,
    /** A join is refused while the room is full or anyone waits. */
    REJECT;

    /** The name callers see and the rooms' records keep: lower case. */
    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * @throws InvalidArgumentException naming the field (as the HTTP API names it) that is out of
   *     range
   */
  public RoomSpec {
    within("max_active", maxActive, 1, MAX_ACTIVE);
    within("admit_per_minute", admitPerMinute, 0, MAX_ADMIT_PER_MINUTE);
    within("pass_ttl_ms", passTtlMs, MIN_PASS_TTL_MS, MAX_PASS_TTL_MS);
    within("grace_ms", graceMs, MIN_GRACE_MS, MAX_GRACE_MS);
    within("event_start_at", eventStartAt, 0, Long.MAX_VALUE);
    if (method == null) {
      throw new InvalidArgumentException("queueing_method", "must not be null");
    }
  }

  private static void within(String field, long value, long min, long max) {
    if (value < min || value > max) {
      throw new InvalidArgumentException(field, "must be " + min + " to " + max);
    }
  }

  /**
   * A FIFO room of {@code maxActive} passes with every other setting at its default: no admission
   * rate limit, passes of {@link #DEFAULT_PASS_TTL_MS} not renewable, no event start, a grace of
   * {@link #DEFAULT_GRACE_MS}, not suspended.
   *
   * @throws InvalidArgumentException when {@code maxActive} is out of range
   */
  public static RoomSpec of(int maxActive) {
    return new RoomSpec(
        maxActive, 0, DEFAULT_PASS_TTL_MS, false, Method.FIFO, 0, DEFAULT_GRACE_MS, false);
  }

  /** The same settings with another pass lifetime, in ms. */
  public RoomSpec withPassTtlMs(long ms) {
    return new RoomSpec(
        maxActive, admitPerMinute, ms, renewable, method, eventStartAt, graceMs, suspended);
  }

  /** The same settings, suspended (nobody is admitted) or not. */
  public RoomSpec withSuspended(boolean suspended) {
    return new RoomSpec(
        maxActive, admitPerMinute, passTtlMs, renewable, method, eventStartAt, graceMs, suspended);
  }

  /** The same settings with another abandonment grace, in ms. */
  public RoomSpec withGraceMs(long ms) {
    return new RoomSpec(
        maxActive, admitPerMinute, passTtlMs, renewable, method, eventStartAt, ms, suspended);
  }
}
