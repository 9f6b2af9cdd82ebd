package io.lineup.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The settings of an endpoint for {@link DispatchClient#putEndpoint}: its base URL and only the
 * settings named; the server gives the others their defaults (docs/dispatch.md, "Endpoint
 * settings", lists every range). The server checks every value and answers 400 naming the field.
 *
 * <pre>{@code
 * EndpointSettings.of("https://render.internal.example/api")
 *     .rate(300, Duration.ofSeconds(1)).concurrency(4).maxAttempts(3);
 * }</pre>
 */
public final class EndpointSettings {
  private final ObjectNode json = Json.object();

  private EndpointSettings(String baseUrl) {
    json.put("base_url", Objects.requireNonNull(baseUrl, "baseUrl"));
  }

  /** Settings of an endpoint at this http or https base URL; tasks reach only paths under it. */
  public static EndpointSettings of(String baseUrl) {
    return new EndpointSettings(baseUrl);
  }

  /** The methods a task may use (default {@code POST} only). */
  public EndpointSettings methods(List<String> methods) {
    ArrayNode list = json.putArray("methods");
    methods.forEach(list::add);
    return this;
  }

  /** At most {@code rate} requests started per {@code period}, across all server instances. */
  public EndpointSettings rate(int rate, Duration period) {
    json.put("rate", rate);
    json.put("period_ms", period.toMillis());
    return this;
  }

  /** Most requests started at once (default a tenth of the rate, at least 1). */
  public EndpointSettings burst(int burst) {
    json.put("burst", burst);
    return this;
  }

  /** Most requests in flight across all instances (default 10; 0: no shared cap). */
  public EndpointSettings concurrency(int concurrency) {
    json.put("concurrency", concurrency);
    return this;
  }

  /** Longest time of one request, up to its response headers (default 30 s). */
  public EndpointSettings attemptTimeout(Duration timeout) {
    json.put("attempt_timeout_ms", timeout.toMillis());
    return this;
  }

  /** Requests per task before it fails (default 3). */
  public EndpointSettings maxAttempts(int attempts) {
    json.put("max_attempts", attempts);
    return this;
  }

  /** Exponential backoff between retries, from {@code initial} up to {@code max}, with jitter. */
  public EndpointSettings exponentialBackoff(Duration initial, Duration max, double jitter) {
    ObjectNode b = json.putObject("backoff");
    b.put("kind", "exponential");
    b.put("initial_ms", initial.toMillis());
    b.put("max_ms", max.toMillis());
    b.put("jitter", jitter);
    return this;
  }

  /** A fixed wait between retries. */
  public EndpointSettings fixedBackoff(Duration wait) {
    ObjectNode b = json.putObject("backoff");
    b.put("kind", "fixed");
    b.put("initial_ms", wait.toMillis());
    return this;
  }

  /**
   * The outcomes that are retried: {@code connection_error}, {@code timeout}, {@code 4xx}, {@code
   * 5xx} or a status code such as {@code 429}.
   */
  public EndpointSettings retryOn(List<String> outcomes) {
    ArrayNode list = json.putArray("retry_on");
    outcomes.forEach(list::add);
    return this;
  }

  /** Longest wait in line before the first attempt (default 1 h); then the task times out. */
  public EndpointSettings lineTimeout(Duration timeout) {
    json.put("line_timeout_ms", timeout.toMillis());
    return this;
  }

  /** How long a finished task is kept (default 1 h). */
  public EndpointSettings retention(Duration retention) {
    json.put("retention_ms", retention.toMillis());
    return this;
  }

  /** How long a finished task is kept once its caller has read it (default 60 s). */
  public EndpointSettings readGrace(Duration grace) {
    json.put("read_grace_ms", grace.toMillis());
    return this;
  }

  /** The expected length of one request, for ETAs until completions have been measured. */
  public EndpointSettings expectedService(Duration expected) {
    json.put("expected_service_ms", expected.toMillis());
    return this;
  }

  /** A paused endpoint accepts tasks and sends none. */
  public EndpointSettings paused(boolean paused) {
    json.put("paused", paused);
    return this;
  }

  /**
   * Opens the breaker after {@code failures} consecutive failures (0: off) for {@code cooldown}.
   */
  public EndpointSettings circuitBreaker(int failures, Duration cooldown) {
    ObjectNode b = json.putObject("circuit_breaker");
    b.put("failures", failures);
    b.put("cooldown_ms", cooldown.toMillis());
    return this;
  }

  /**
   * Fair dispatch: the tasks' keys ({@link NewTask#key}) are served in turn, and no key has more
   * than {@code keyConcurrency} requests in flight, {@code keyRate} started per {@code
   * keyRatePeriod} or {@code keyMaxWaiting} tasks waiting (0: no limit; a submit past the last is
   * refused with 429 {@code key_backlog_full}). The limits sit under the endpoint's own.
   *
   * @param keyRatePeriod the period of {@code keyRate}: 10 ms to 1 day
   */
  public EndpointSettings fairness(
      int keyConcurrency, int keyRate, Duration keyRatePeriod, int keyMaxWaiting) {
    ObjectNode f = json.putObject("fairness");
    f.put("enabled", true);
    f.put("key_concurrency", keyConcurrency);
    f.put("key_rate", keyRate);
    f.put("key_rate_period_ms", keyRatePeriod.toMillis());
    f.put("key_max_waiting", keyMaxWaiting);
    return this;
  }

  /**
   * Adaptive concurrency: the requests in flight follow the endpoint's answers between {@code min}
   * and {@code max} (one limit shared by every server instance), rising by 1 a window while the
   * mean latency is at most {@code targetLatency}, falling on slower windows and on 429 or 503
   * answers (docs/adaptive.md). The endpoint's {@link #concurrency}, when above 0, is a ceiling:
   * {@code max} may not exceed it. The window, starting limit and decrease take their defaults.
   *
   * @param min the lowest limit, 1 to 10,000
   * @param max the highest limit, {@code min} to 10,000
   * @param targetLatency the latency the endpoint should keep, 1 ms to 15 min
   */
  public EndpointSettings adaptive(int min, int max, Duration targetLatency) {
    ObjectNode a = json.putObject("adaptive");
    a.put("min", min);
    a.put("max", max);
    a.put("target_latency_ms", targetLatency.toMillis());
    return this;
  }

  /**
   * Adaptive concurrency with every setting given ({@link #adaptive(int, int, Duration)}).
   *
   * @param initial the limit it starts at, {@code min} to {@code max}
   * @param window the measurement window, 100 ms to 10 min; the limit moves at most once per window
   * @param decrease the factor of a decrease, 0.5 to 0.95
   */
  public EndpointSettings adaptive(
      int min, int max, Duration targetLatency, int initial, Duration window, double decrease) {
    adaptive(min, max, targetLatency);
    ObjectNode a = (ObjectNode) json.get("adaptive");
    a.put("initial", initial);
    a.put("window_ms", window.toMillis());
    a.put("decrease", decrease);
    return this;
  }

  JsonNode toJson() {
    return json.deepCopy();
  }
}
