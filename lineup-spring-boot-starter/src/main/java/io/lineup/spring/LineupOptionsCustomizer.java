package io.lineup.spring;

import io.lineup.core.LineupOptions;

/**
 * Changes the embedded engine's options before it connects (time source, command timeout, latency
 * listener, ...). Every bean of this type is applied, in {@code @Order}.
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
