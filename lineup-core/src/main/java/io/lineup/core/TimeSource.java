package io.lineup.core;

/**
 * The one clock due times are compared against. The default is the Redis server clock, which every
 * engine instance shares, so instances with skewed host clocks agree. Tests inject a {@link
 * ManualClock} to move time forward.
 */
public sealed interface TimeSource permits TimeSource.RedisServerTime, ManualClock {
  /** The Redis server clock (the default). */
  TimeSource REDIS = new RedisServerTime();

  /** The value scripts receive as "now": empty for Redis time, else epoch milliseconds. */
  String scriptArgument();

  /** Marker for the Redis server clock. */
  final class RedisServerTime implements TimeSource {
    private RedisServerTime() {}

    @Override
    public String scriptArgument() {
      return "";
    }
  }
}
