package io.lineup.api.resource;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * A queue's effective settings (schema {@code Settings}), under the names of {@link
 * io.lineup.api.QueueSettingField} and in its order; every field is present. Ranges and defaults
 * are listed in docs/server.md ("Queues").
 *
 * @param paused whether leases return nothing (publishing still works)
 * @param rateLimit most leases per sliding {@code ratePeriodMs} across all consumers; 0 = no limit
 * @param ratePeriodMs the period of the rate limit, in milliseconds
 * @param rateBurst 0: the whole rate may be leased at once; n: at most n at once, then the leases
 *     are spaced evenly
 * @param concurrencyLimit most jobs leased at once across all consumers; 0 = no limit
 * @param maxAttempts deliveries before dead letters, for jobs that set none
 * @param ttrMs lease length for jobs that set none, in milliseconds
 * @param backoff the waits between retries
 * @param retentionMs how long finished records are kept, in milliseconds
 * @param retentionMax most finished records kept
 * @param expectedServiceMs time one job is expected to take from lease to ack, which ETAs use until
 *     the queue has served jobs, in milliseconds; 0 = none
 * @param durableReplicas Redis replicas that must acknowledge a publish before it is answered, for
 *     publishes that name none; 0 = answer at once
 * @param fair whether the queue serves its fairness keys in turn (docs/fairness.md)
 * @param keyConcurrency most jobs of one fairness key leased at once, for keys without their own; 0
 *     = no limit
 * @param keyRate most leases of one fairness key per {@code keyRatePeriodMs}, for keys without
 *     their own; 0 = no limit
 * @param keyRatePeriodMs the period of {@code keyRate}, in milliseconds
 * @param keyMaxWaiting most jobs of one fairness key waiting, for keys without their own; a publish
 *     past it is refused ({@code key_backlog_full}); 0 = no limit
 */
@JsonPropertyOrder({
  "paused",
  "rate_limit",
  "rate_period_ms",
  "rate_burst",
  "concurrency_limit",
  "max_attempts",
  "ttr_ms",
  "backoff",
  "retention_ms",
  "retention_max",
  "expected_service_ms",
  "durable_replicas",
  "fair",
  "key_concurrency",
  "key_rate",
  "key_rate_period_ms",
  "key_max_waiting"
})
public record QueueSettings(
    @JsonProperty("paused") Boolean paused,
    @JsonProperty("rate_limit") Long rateLimit,
    @JsonProperty("rate_period_ms") Long ratePeriodMs,
    @JsonProperty("rate_burst") Long rateBurst,
    @JsonProperty("concurrency_limit") Long concurrencyLimit,
    @JsonProperty("max_attempts") Long maxAttempts,
    @JsonProperty("ttr_ms") Long ttrMs,
    @JsonProperty("backoff") Backoff backoff,
    @JsonProperty("retention_ms") Long retentionMs,
    @JsonProperty("retention_max") Long retentionMax,
    @JsonProperty("expected_service_ms") Long expectedServiceMs,
    @JsonProperty("durable_replicas") Long durableReplicas,
    @JsonProperty("fair") Boolean fair,
    @JsonProperty("key_concurrency") Long keyConcurrency,
    @JsonProperty("key_rate") Long keyRate,
    @JsonProperty("key_rate_period_ms") Long keyRatePeriodMs,
    @JsonProperty("key_max_waiting") Long keyMaxWaiting) {

  /**
   * The waits between a queue's retries.
   *
   * @param kind {@code fixed} or {@code exponential}
   * @param initialMs wait before the first retry when a nack names no delay, in milliseconds
   * @param maxMs longest wait between retries, in milliseconds
   * @param jitter largest fraction a wait is shortened by at random, 0 to 1
   */
  @JsonPropertyOrder({"kind", "initial_ms", "max_ms", "jitter"})
  public record Backoff(
      @JsonProperty("kind") String kind,
      @JsonProperty("initial_ms") Long initialMs,
      @JsonProperty("max_ms") Long maxMs,
      @JsonProperty("jitter") Double jitter) {}
}
