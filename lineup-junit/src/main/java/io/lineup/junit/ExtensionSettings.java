package io.lineup.junit;

import io.lineup.server.ServerSettings;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * What one {@link LineupExtension} starts and hands out, checked: built by {@link
 * LineupExtension.Builder} or read from {@link LineupTest}.
 *
 * @param namespace the namespace of the injected client's token (the base of fresh namespaces)
 * @param scopes the token's scopes
 * @param maxPriority the token's highest priority
 * @param lifecycle one server per class or per test method
 * @param freshNamespacePerTest whether each test method gets a namespace of its own
 * @param redisUrl an existing Redis, or null to start one
 * @param serverSettings changes to the server's settings, applied after the extension's own
 */
record ExtensionSettings(
    String namespace,
    List<String> scopes,
    int maxPriority,
    ServerLifecycle lifecycle,
    boolean freshNamespacePerTest,
    String redisUrl,
    UnaryOperator<ServerSettings.Builder> serverSettings) {

  /** The settings a {@link LineupTest} holds. */
  static ExtensionSettings of(LineupTest annotation) {
    LineupExtension.Builder builder =
        LineupExtension.builder()
            .namespace(annotation.namespace())
            .scopes(annotation.scopes())
            .maxPriority(annotation.maxPriority())
            .lifecycle(annotation.lifecycle())
            .freshNamespacePerTest(annotation.freshNamespacePerTest())
            .redisUrl(annotation.redisUrl());
    if (!annotation.egressAllow().isBlank()) {
      builder.egressAllow(annotation.egressAllow());
    }
    return builder.settings();
  }
}
