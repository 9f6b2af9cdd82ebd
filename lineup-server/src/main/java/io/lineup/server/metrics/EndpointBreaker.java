package io.lineup.server.metrics;

/**
 * The circuit breaker of one dispatch endpoint, as the metrics report it.
 *
 * @param namespace the endpoint's namespace
 * @param endpoint the endpoint's name
 * @param open whether the breaker is open or half open (not sending as usual)
 */
public record EndpointBreaker(String namespace, String endpoint, boolean open) {}
