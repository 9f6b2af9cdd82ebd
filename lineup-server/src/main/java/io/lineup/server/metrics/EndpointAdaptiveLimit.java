package io.lineup.server.metrics;

/**
 * The adaptive concurrency of one dispatch endpoint, as the metrics report it.
 *
 * @param namespace the endpoint's namespace
 * @param endpoint the endpoint's name
 * @param limit the limit in force, read from Redis; 0 when it could not be read
 * @param movesUp increases this instance's reports made since it started
 * @param movesDown decreases this instance's reports made since it started
 */
public record EndpointAdaptiveLimit(
    String namespace, String endpoint, int limit, long movesUp, long movesDown) {}
