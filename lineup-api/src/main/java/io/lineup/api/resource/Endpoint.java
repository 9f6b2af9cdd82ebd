package io.lineup.api.resource;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * A dispatch endpoint as the server holds it, with its breaker state and task counts ({@code GET
 * /v1/endpoints/{ns}/{endpoint}}); every field is present.
 *
 * @param namespace its namespace
 * @param endpoint its name within the namespace
 * @param baseUrl the base URL tasks are sent under
 * @param methods the methods a task may use, sorted
 * @param rate most requests started per {@code periodMs} (0: no limit)
 * @param periodMs the rate's period, in milliseconds
 * @param burst most requests started at once (0: a tenth of the rate)
 * @param concurrency most requests in flight across all instances (0: no shared cap)
 * @param attemptTimeoutMs longest time of one request, in milliseconds
 * @param maxAttempts requests per task
 * @param backoff the waits between retries
 * @param retryOn the outcomes that are retried
 * @param retryAfterCapMs the longest {@code Retry-After} honoured, in milliseconds
 * @param lineTimeoutMs longest wait in line before the first attempt, in milliseconds
 * @param retentionMs how long a finished task is kept, in milliseconds
 * @param readGraceMs how long a finished task is kept after its caller read it, in milliseconds
 * @param expectedServiceMs the time one request is expected to take, which ETAs use until the
 *     endpoint has served tasks, in milliseconds, or null
 * @param paused whether it sends nothing
 * @param circuitBreaker the breaker's settings
 * @param fairness whether its tasks' keys are served in turn, and each key's limits
 * @param adaptive its adaptive concurrency: settings and the limit in force, or null when off
 * @param createdAt when it was first put, epoch milliseconds
 * @param updatedAt when it was last put, epoch milliseconds
 * @param circuitBreakerState the breaker's state now
 * @param tasks its tasks by state
 * @param serviceRate requests ended per second, a decaying average over 30 s
 * @param queue the queue that holds its tasks, {@code namespace/name}
 */
@JsonPropertyOrder({
  "namespace",
  "endpoint",
  "base_url",
  "methods",
  "rate",
  "period_ms",
  "burst",
  "concurrency",
  "attempt_timeout_ms",
  "max_attempts",
  "backoff",
  "retry_on",
  "retry_after_cap_ms",
  "line_timeout_ms",
  "retention_ms",
  "read_grace_ms",
  "expected_service_ms",
  "paused",
  "circuit_breaker",
  "fairness",
  "adaptive",
  "created_at",
  "updated_at",
  "circuit_breaker_state",
  "tasks",
  "service_rate",
  "queue"
})
public record Endpoint(
    @JsonProperty("namespace") String namespace,
    @JsonProperty("endpoint") String endpoint,
    @JsonProperty("base_url") String baseUrl,
    @JsonProperty("methods") List<String> methods,
    @JsonProperty("rate") int rate,
    @JsonProperty("period_ms") long periodMs,
    @JsonProperty("burst") int burst,
    @JsonProperty("concurrency") int concurrency,
    @JsonProperty("attempt_timeout_ms") long attemptTimeoutMs,
    @JsonProperty("max_attempts") int maxAttempts,
    @JsonProperty("backoff") Backoff backoff,
    @JsonProperty("retry_on") List<String> retryOn,
    @JsonProperty("retry_after_cap_ms") long retryAfterCapMs,
    @JsonProperty("line_timeout_ms") long lineTimeoutMs,
    @JsonProperty("retention_ms") long retentionMs,
    @JsonProperty("read_grace_ms") long readGraceMs,
    @JsonProperty("expected_service_ms") Long expectedServiceMs,
    @JsonProperty("paused") boolean paused,
    @JsonProperty("circuit_breaker") CircuitBreaker circuitBreaker,
    @JsonProperty("fairness") Fairness fairness,
    @JsonProperty("adaptive") Adaptive adaptive,
    @JsonProperty("created_at") Long createdAt,
    @JsonProperty("updated_at") Long updatedAt,
    @JsonProperty("circuit_breaker_state") BreakerState circuitBreakerState,
    @JsonProperty("tasks") TaskCounts tasks,
    @JsonProperty("service_rate") double serviceRate,
    @JsonProperty("queue") String queue) {

  /**
   * The waits between an endpoint's retries.
   *
   * @param kind {@code fixed}, {@code exponential} or {@code schedule}
   * @param initialMs the first wait, in milliseconds
   * @param maxMs the longest wait, in milliseconds
   * @param jitter largest fraction a wait is shortened by at random, 0 to 1
   * @param scheduleMs the waits in turn, in milliseconds, or null when the kind is not a schedule
   */
  @JsonPropertyOrder({"kind", "initial_ms", "max_ms", "jitter", "schedule_ms"})
  public record Backoff(
      @JsonProperty("kind") String kind,
      @JsonProperty("initial_ms") long initialMs,
      @JsonProperty("max_ms") long maxMs,
      @JsonProperty("jitter") double jitter,
      @JsonProperty("schedule_ms") List<Long> scheduleMs) {}

  /**
   * An endpoint's breaker settings.
   *
   * @param failures consecutive failures that open it (0: never)
   * @param cooldownMs how long it stays open before a probe, in milliseconds
   */
  @JsonPropertyOrder({"failures", "cooldown_ms"})
  public record CircuitBreaker(
      @JsonProperty("failures") int failures, @JsonProperty("cooldown_ms") long cooldownMs) {}

  /**
   * An endpoint's fair dispatch: its tasks' keys served in turn, each under its own limits, all
   * under the endpoint's rate and concurrency.
   *
   * @param enabled whether keys are served in turn (the limits apply only then)
   * @param keyConcurrency most requests of one key in flight at once (0: no limit)
   * @param keyRate most requests of one key started per {@code keyRatePeriodMs} (0: no limit)
   * @param keyRatePeriodMs the period of {@code keyRate}, in milliseconds
   * @param keyMaxWaiting most tasks of one key waiting; a submit past it gets 429 {@code
   *     key_backlog_full} (0: no limit)
   */
  @JsonPropertyOrder({
    "enabled",
    "key_concurrency",
    "key_rate",
    "key_rate_period_ms",
    "key_max_waiting"
  })
  public record Fairness(
      @JsonProperty("enabled") boolean enabled,
      @JsonProperty("key_concurrency") int keyConcurrency,
      @JsonProperty("key_rate") int keyRate,
      @JsonProperty("key_rate_period_ms") long keyRatePeriodMs,
      @JsonProperty("key_max_waiting") int keyMaxWaiting) {}

  /**
   * An endpoint's adaptive concurrency: the requests in flight follow its answers within {@code
   * [min, max]}, one limit shared by every instance (docs/adaptive.md).
   *
   * @param min the lowest limit
   * @param max the highest limit (at most the endpoint's concurrency when that is set)
   * @param initial the limit it started at
   * @param targetLatencyMs the mean latency of a window above which the limit decreases, in
   *     milliseconds
   * @param windowMs the measurement window, in milliseconds
   * @param decrease the factor of a decrease
   * @param limit the limit in force now, or null when it cannot be read
   * @param reason why it last moved or held ({@code increase: latency 120ms<=200ms}, {@code
   *     decrease: 429}, {@code decrease: latency 900ms>200ms}, {@code hold: retry-after 5000ms},
   *     {@code start: 2}), or null
   * @param movedAt when it last moved or held, epoch milliseconds, or null
   * @param holdUntil until when a {@code Retry-After} holds the endpoint, epoch milliseconds, or
   *     null when none does
   */
  @JsonPropertyOrder({
    "min",
    "max",
    "initial",
    "target_latency_ms",
    "window_ms",
    "decrease",
    "limit",
    "reason",
    "moved_at",
    "hold_until"
  })
  public record Adaptive(
      @JsonProperty("min") int min,
      @JsonProperty("max") int max,
      @JsonProperty("initial") int initial,
      @JsonProperty("target_latency_ms") long targetLatencyMs,
      @JsonProperty("window_ms") long windowMs,
      @JsonProperty("decrease") double decrease,
      @JsonProperty("limit") Integer limit,
      @JsonProperty("reason") String reason,
      @JsonProperty("moved_at") Long movedAt,
      @JsonProperty("hold_until") Long holdUntil) {}

  /**
   * An endpoint's breaker now.
   *
   * @param state {@code closed}, {@code open} or {@code half_open}
   * @param probeAt when an open breaker lets a probe through, epoch milliseconds, or null
   * @param consecutiveFailures failures in a row so far
   */
  @JsonPropertyOrder({"state", "probe_at", "consecutive_failures"})
  public record BreakerState(
      @JsonProperty("state") String state,
      @JsonProperty("probe_at") Long probeAt,
      @JsonProperty("consecutive_failures") int consecutiveFailures) {}

  /**
   * An endpoint's tasks by state.
   *
   * @param queued tasks waiting (in line, delayed or waiting for a retry)
   * @param running tasks with a request in flight
   * @param failed tasks that failed for good
   * @param finishedKept ended tasks still kept
   */
  @JsonPropertyOrder({"queued", "running", "failed", "finished_kept"})
  public record TaskCounts(
      @JsonProperty("queued") long queued,
      @JsonProperty("running") long running,
      @JsonProperty("failed") long failed,
      @JsonProperty("finished_kept") long finishedKept) {}
}
