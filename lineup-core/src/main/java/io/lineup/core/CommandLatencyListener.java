package io.lineup.core;

import java.time.Duration;

/**
 * Receives the latency of every Redis command the engine sends (for metrics). Must be fast and
 * thread-safe.
 */
@FunctionalInterface
public interface CommandLatencyListener {
  /**
   * @param command the Redis command, e.g. {@code EVALSHA}
   * @param latency from sending to the complete reply
   */
  void record(String command, Duration latency);
}
