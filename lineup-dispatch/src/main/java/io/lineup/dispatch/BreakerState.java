package io.lineup.dispatch;

import java.util.Locale;

/**
 * An endpoint's circuit breaker, shared by every instance through one record in Redis that each
 * change replaces atomically ({@link io.lineup.core.RecordStore#replace}): the state and the count
 * of consecutive failed attempts across all instances. The transitions are pure functions of the
 * current state, so an instance reads the record, computes the next one and replaces it only when
 * no other instance changed it meanwhile.
 *
 * @param state closed (sending), open (not sending until {@code openUntil}), or half open (one
 *     probe at a time)
 * @param openUntil when an open breaker lets one probe through, epoch milliseconds (0 otherwise)
 * @param failures consecutive failed attempts across all instances
 * @param probe the task sending the one probe of a half-open breaker ({@code <endpoint
 *     record>/<task id>}), or empty when none has claimed it
 * @param probeUntil when a claimed probe is given up (its instance died or lost the lease), epoch
 *     milliseconds: another task may then claim the probe
 */
public record BreakerState(
    State state, long openUntil, int failures, String probe, long probeUntil) {
  /** The breaker's states. */
  public enum State {
    CLOSED,
    OPEN,
    HALF_OPEN
  }

  public BreakerState {
    probe = probe == null ? "" : probe;
  }

  static BreakerState closed() {
    return new BreakerState(State.CLOSED, 0, 0, "", 0);
  }

  /** Whether nothing needs storing: closed with no failure counted. */
  boolean isClean() {
    return state == State.CLOSED && failures == 0;
  }

  /**
   * After a failed attempt (connection error, timeout, 429, 5xx): closed counts it and opens for
   * {@code cooldownMs} at {@code threshold} consecutive failures; half open reopens (the probe
   * failed); open stays as it is (a request sent before it opened).
   */
  BreakerState afterFailure(int threshold, long cooldownMs, long now) {
    return switch (state) {
      case CLOSED ->
          threshold > 0 && failures + 1 >= threshold
              ? new BreakerState(State.OPEN, now + cooldownMs, failures + 1, "", 0)
              : new BreakerState(State.CLOSED, 0, failures + 1, "", 0);
      case HALF_OPEN -> new BreakerState(State.OPEN, now + cooldownMs, failures + 1, "", 0);
      case OPEN -> this;
    };
  }

  /**
   * After an answer that says the endpoint is up (any but a connection error, timeout, 429 or 5xx):
   * the count starts again and a half-open breaker closes; an open one waits for its probe.
   */
  BreakerState afterSuccess() {
    return switch (state) {
      case CLOSED, HALF_OPEN -> closed();
      case OPEN -> this;
    };
  }

  /** Half open once the cool-down is over; otherwise unchanged. */
  BreakerState halfOpenIfDue(long now) {
    return state == State.OPEN && now >= openUntil
        ? new BreakerState(State.HALF_OPEN, 0, failures, "", 0)
        : this;
  }

  /** Whether {@code task} may claim the probe now: half open and no live claim by another task. */
  boolean probeFree(String task, long now) {
    return state == State.HALF_OPEN && (probe.isEmpty() || probe.equals(task) || now >= probeUntil);
  }

  /** Half open with the probe claimed by {@code task} until {@code until}. */
  BreakerState probing(String task, long until) {
    return new BreakerState(State.HALF_OPEN, 0, failures, task, until);
  }

  /** The probe claim of {@code task} given up (it was not sent); otherwise unchanged. */
  BreakerState withoutProbe(String task) {
    return state == State.HALF_OPEN && probe.equals(task)
        ? new BreakerState(State.HALF_OPEN, 0, failures, "", 0)
        : this;
  }

  /** The stored form: {@code STATE:openUntil:failures:probeUntil:probe}. */
  String stored() {
    return state.name() + ":" + openUntil + ":" + failures + ":" + probeUntil + ":" + probe;
  }

  /** The stored form read back; absent or unreadable is closed. */
  static BreakerState fromStored(String text) {
    if (text == null) {
      return closed();
    }
    // The probe is last: a task id may hold colons.
    String[] parts = text.split(":", 5);
    try {
      State state = State.valueOf(parts[0]);
      long until = Long.parseLong(parts[1]);
      if (parts.length < 5) {
        // Written by a server before the count was shared: state and time only.
        return new BreakerState(state, until, 0, "", 0);
      }
      return new BreakerState(
          state, until, Integer.parseInt(parts[2]), parts[4], Long.parseLong(parts[3]));
    } catch (RuntimeException e) {
      return closed();
    }
  }

  /** The state as the API writes it: {@code closed}, {@code open}, {@code half_open}. */
  public String json() {
    return state.name().toLowerCase(Locale.ROOT);
  }
}
