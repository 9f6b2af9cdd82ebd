package io.lineup.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;

/**
 * A queue's effective settings, as the server reports them. Ranges and defaults are listed in
 * docs/server.md ("Queues").
 *
 * @param paused whether leases return nothing (publishing still works)
 * @param rateLimit most leases per sliding second across all consumers; 0 = no limit
 * @param concurrencyLimit most jobs leased at once across all consumers; 0 = no limit
 * @param maxAttempts deliveries before dead letters, for jobs that set none
 * @param timeToRun lease length, for jobs that set none
 * @param backoffKind {@code fixed} or {@code exponential}
 * @param backoffInitial wait before the first retry, when a nack names no delay
 * @param backoffMax longest wait between retries
 * @param backoffJitter largest fraction a wait is shortened by at random, 0 to 1
 * @param retention how long finished records are kept
 * @param retentionMax most finished records kept
 */
public record QueueSettings(
    boolean paused,
    long rateLimit,
    long concurrencyLimit,
    int maxAttempts,
    Duration timeToRun,
    String backoffKind,
    Duration backoffInitial,
    Duration backoffMax,
    double backoffJitter,
    Duration retention,
    long retentionMax) {

  static QueueSettings read(JsonNode node) {
    JsonNode backoff = node.path("backoff");
    return new QueueSettings(
        node.path("paused").asBoolean(),
        Json.longValue(node, "rate_limit", 0),
        Json.longValue(node, "concurrency_limit", 0),
        Json.intValue(node, "max_attempts", 0),
        Json.millis(node, "ttr_ms"),
        Json.text(backoff, "kind"),
        Json.millis(backoff, "initial_ms"),
        Json.millis(backoff, "max_ms"),
        backoff.path("jitter").asDouble(),
        Json.millis(node, "retention_ms"),
        Json.longValue(node, "retention_max", 0));
  }
}
