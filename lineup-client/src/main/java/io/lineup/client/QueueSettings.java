package io.lineup.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.api.QueueSettingField;
import java.time.Duration;

/**
 * A queue's effective settings, as the server reports them. Ranges and defaults are listed in
 * docs/server.md ("Queues").
 *
 * @param paused whether leases return nothing (publishing still works)
 * @param rateLimit most leases per sliding period ({@code ratePeriod}) across all consumers; 0 = no
 *     limit
 * @param concurrencyLimit most jobs leased at once across all consumers; 0 = no limit
 * @param maxAttempts deliveries before dead letters, for jobs that set none
 * @param timeToRun lease length, for jobs that set none
 * @param backoffKind {@code fixed} or {@code exponential}
 * @param backoffInitial wait before the first retry, when a nack names no delay
 * @param backoffMax longest wait between retries
 * @param backoffJitter largest fraction a wait is shortened by at random, 0 to 1
 * @param retention how long finished records are kept
 * @param retentionMax most finished records kept
 * @param ratePeriod the period of the rate limit
 * @param rateBurst 0: the whole rate may be leased at once; n: at most n at once, then the leases
 *     are spaced evenly
 * @param expectedServiceTime time one job is expected to take from lease to ack, which ETAs use
 *     until the queue has served jobs; zero = none
 * @param durableReplicas Redis replicas that must acknowledge a publish before it is answered, for
 *     publishes that name none; 0 = answer at once
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
    long retentionMax,
    Duration ratePeriod,
    long rateBurst,
    Duration expectedServiceTime,
    int durableReplicas) {

  static QueueSettings read(JsonNode node) {
    JsonNode backoff = node.path(QueueSettingField.BACKOFF);
    return new QueueSettings(
        node.path(QueueSettingField.PAUSED.jsonName()).asBoolean(),
        Json.longValue(node, QueueSettingField.RATE_LIMIT.jsonName(), 0),
        Json.longValue(node, QueueSettingField.CONCURRENCY_LIMIT.jsonName(), 0),
        Json.intValue(node, QueueSettingField.MAX_ATTEMPTS.jsonName(), 0),
        Json.millis(node, QueueSettingField.TIME_TO_RUN.jsonName()),
        Json.text(backoff, QueueSettingField.BACKOFF_KIND.jsonName()),
        Json.millis(backoff, QueueSettingField.BACKOFF_INITIAL.jsonName()),
        Json.millis(backoff, QueueSettingField.BACKOFF_MAX.jsonName()),
        backoff.path(QueueSettingField.BACKOFF_JITTER.jsonName()).asDouble(),
        Json.millis(node, QueueSettingField.RETENTION.jsonName()),
        Json.longValue(node, QueueSettingField.RETENTION_MAX.jsonName(), 0),
        Json.millis(node, QueueSettingField.RATE_PERIOD.jsonName()),
        Json.longValue(node, QueueSettingField.RATE_BURST.jsonName(), 0),
        Json.millis(node, QueueSettingField.EXPECTED_SERVICE_TIME.jsonName()),
        Json.intValue(node, QueueSettingField.DURABLE_REPLICAS.jsonName(), 0));
  }
}
