package io.lineup.spring;

import io.lineup.client.LineupClient;

/**
 * Changes the client's settings before it is built (timeouts, ...). Every bean of this type is
 * applied, in {@code @Order}; the starter's own, which passes the application's
 * ObservationRegistry, comes first ({@link LineupAutoConfiguration#OBSERVATION_CUSTOMIZER_ORDER}),
 * so these can change what it set.
 */
@FunctionalInterface
public interface LineupClientCustomizer {
  /**
   * Changes the builder.
   *
   * @param builder holds the server URL and token from {@code lineup.client.*}
   */
  void customize(LineupClient.Builder builder);
}
