package io.lineup.server.api;

import io.lineup.core.Lineup;
import io.lineup.server.auth.NamespaceStore;
import io.lineup.server.auth.TokenStore;
import io.lineup.server.http.Draining;
import io.lineup.server.http.LeaseWaiters;
import io.lineup.server.metrics.ServerMetrics;

/**
 * What the handlers share.
 *
 * @param lineup the engine
 * @param metrics the server's metrics
 * @param waiters the long-polls in progress
 * @param draining whether the server is shutting down
 * @param tokens namespace tokens
 * @param namespaces registered namespaces
 * @param maxBodyBytes the request body limit
 * @param maxPayloadBytes the payload limit
 * @param metricsPublic whether /metrics needs no token
 */
public record ApiContext(
    Lineup lineup,
    ServerMetrics metrics,
    LeaseWaiters waiters,
    Draining draining,
    TokenStore tokens,
    NamespaceStore namespaces,
    int maxBodyBytes,
    int maxPayloadBytes,
    boolean metricsPublic) {}
