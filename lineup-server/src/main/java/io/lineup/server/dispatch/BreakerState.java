package io.lineup.server.dispatch;

/**
 * An endpoint's circuit breaker, shared by every instance through Redis.
 *
 * @param state closed (sending), open (not sending until {@code openUntil}), or half open (one
 *     probe at a time)
 * @param openUntil when an open breaker lets one probe through, epoch milliseconds (0 otherwise)
 */
public record BreakerState(State state, long openUntil) {
  /** The breaker's states. */
  public enum State {
    CLOSED,
    OPEN,
    HALF_OPEN
  }

  static BreakerState closed() {
    return new BreakerState(State.CLOSED, 0);
  }

  static BreakerState open(long until) {
    return new BreakerState(State.OPEN, until);
  }

  static BreakerState halfOpen() {
    return new BreakerState(State.HALF_OPEN, 0);
  }

  String stored() {
    return state.name() + ":" + openUntil;
  }

  static BreakerState fromStored(String text) {
    if (text == null) {
      return closed();
    }
    int colon = text.indexOf(':');
    try {
      return new BreakerState(
          State.valueOf(text.substring(0, colon)), Long.parseLong(text.substring(colon + 1)));
    } catch (RuntimeException e) {
      return closed();
    }
  }

  /** The state as the API writes it: {@code closed}, {@code open}, {@code half_open}. */
  public String json() {
    return state.name().toLowerCase(java.util.Locale.ROOT);
  }
}
