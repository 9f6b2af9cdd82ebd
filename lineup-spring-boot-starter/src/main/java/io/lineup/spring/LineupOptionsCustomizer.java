package io.lineup.spring;

import io.lineup.core.LineupOptions;

/**
 * Changes the embedded engine's options before it connects (time source, command timeout, latency
 * listener, ...). Every bean of this type is applied, in {@code @Order}; the starter's own, which
 * passes the application's ObservationRegistry, comes first ({@link
 * LineupAutoConfiguration#OBSERVATION_CUSTOMIZER_ORDER}), so these can change what it set.
 */
@FunctionalInterface
public interface LineupOptionsCustomizer {
  /**
   * Changes the builder.
   *
   * @param builder holds the Redis URI and the starter's settings so far
   */
  void customize(LineupOptions.Builder builder);
}
