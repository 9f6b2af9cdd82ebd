package io.lineup.dispatch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The settings of one dispatch endpoint: where its tasks go, and how fast, how often and how long.
 * Durations are milliseconds. docs/dispatch.md lists every field with its range and default.
 *
 * @param baseUrl the target base URL (http or https, no query or fragment, no user info); a task
 *     reaches only paths under it
 * @param methods the HTTP methods a task may use
 * @param rate most requests started per {@code periodMs} across all instances; 0 = no rate limit
 * @param periodMs the period of the rate, in milliseconds
 * @param burst most requests started at once before the rest are spaced evenly (one per {@code
 *     periodMs / rate}); 0 = a tenth of the rate, at least 1
 * @param concurrency most requests in flight at once across all instances; 0 = no shared cap (each
 *     instance then runs at most {@link #UNCAPPED_LOCAL_CONCURRENCY}); one instance runs at most
 *     {@link #MAX_LOCAL_CONCURRENCY} of a larger cap
 * @param attemptTimeoutMs how long one request may take, from sending to the end of the response
 * @param maxAttempts requests per task before it fails (dead letter)
 * @param backoff the waits between attempts
 * @param retryOn which outcomes are retried: {@code connection_error}, {@code timeout}, {@code
 *     4xx}, {@code 5xx} or one status code such as {@code 429}
 * @param retryAfterCapMs longest {@code Retry-After} honoured; a longer one waits this long
 * @param lineTimeoutMs longest wait in line before the first attempt; past it the task ends {@code
 *     timed_out}, never sent
 * @param retentionMs how long a finished task's record is kept
 * @param readGraceMs how long a finished task's record is kept once {@code GET .../tasks/{id}} has
 *     answered it to its caller, if that is sooner than the end of {@code retentionMs}
 * @param expectedServiceMs the expected duration of one request, for ETAs until completions have
 *     been measured (null = none)
 * @param paused whether the endpoint is paused (tasks are accepted and wait)
 * @param breakerFailures consecutive failed attempts that open the circuit breaker; 0 = no breaker
 * @param breakerCooldownMs how long an open breaker stops sending before it sends one probe
 * @param fairness whether tasks' keys are served in turn, and each key's limits under the
 *     endpoint's own ({@link EndpointFairness#OFF} for none)
 * @param adaptive the adaptive concurrency, under {@code concurrency} when that is set; null = off
 *     (the fixed limits alone)
 */
public record EndpointSpec(
    URI baseUrl,
    Set<String> methods,
    int rate,
    long periodMs,
    int burst,
    int concurrency,
    long attemptTimeoutMs,
    int maxAttempts,
    RetryBackoff backoff,
    List<String> retryOn,
    long retryAfterCapMs,
    long lineTimeoutMs,
    long retentionMs,
    long readGraceMs,
    Long expectedServiceMs,
    boolean paused,
    int breakerFailures,
    long breakerCooldownMs,
    EndpointFairness fairness,
    EndpointAdaptive adaptive) {

  /** Requests one instance runs at once for an endpoint without a concurrency cap. */
  public static final int UNCAPPED_LOCAL_CONCURRENCY = 64;

  /**
   * Most requests one instance runs at once for one endpoint, whatever its cap; the egress client
   * keeps as many connections to one target, so that a request sent never waits for a connection
   * inside its attempt's time.
   */
  public static final int MAX_LOCAL_CONCURRENCY = 256;

  /** Highest {@code rate}. */
  public static final int MAX_RATE = 100_000;

  /** Shortest rate period: 100 ms. */
  public static final long MIN_PERIOD_MS = 100;

  /** Longest rate period: 1 day. */
  public static final long MAX_PERIOD_MS = 24L * 3_600_000;

  /**
   * Time added to the rate's period for the delivery of a request: 5 ms (see {@link
   * #enginePeriodMs}).
   */
  public static final long SEND_GUARD_MS = 5;

  /** Highest {@code concurrency}. */
  public static final int MAX_CONCURRENCY = 10_000;

  /** Default attempt timeout: 30 s. */
  public static final long DEFAULT_ATTEMPT_TIMEOUT_MS = 30_000;

  /** Longest attempt timeout: 15 min. */
  public static final long MAX_ATTEMPT_TIMEOUT_MS = 15 * 60_000;

  /** Default max attempts. */
  public static final int DEFAULT_MAX_ATTEMPTS = 3;

  /** Highest max attempts. */
  public static final int MAX_ATTEMPTS = 100;

  /** Default cap of an honoured {@code Retry-After}: 5 min. */
  public static final long DEFAULT_RETRY_AFTER_CAP_MS = 5 * 60_000;

  /** Default line timeout: 1 h. */
  public static final long DEFAULT_LINE_TIMEOUT_MS = 3_600_000;

  /** Longest line timeout and longest retention: 7 days. */
  public static final long MAX_KEEP_MS = 7L * 24 * 3_600_000;

  /** Default retention of finished tasks: 1 h. */
  public static final long DEFAULT_RETENTION_MS = 3_600_000;

  /** Default grace a finished task is kept for once its caller has read it: 60 s. */
  public static final long DEFAULT_READ_GRACE_MS = 60_000;

  /** Default consecutive failures that open the breaker. */
  public static final int DEFAULT_BREAKER_FAILURES = 5;

  /** Default breaker cool-down: 30 s. */
  public static final long DEFAULT_BREAKER_COOLDOWN_MS = 30_000;

  /** Most methods, retry outcomes and schedule steps in a list. */
  public static final int MAX_LIST = 32;

  /** Longest base URL, in characters. */
  public static final int MAX_URL_LENGTH = 2048;

  /** Outcomes retried unless the endpoint says otherwise. */
  public static final List<String> DEFAULT_RETRY_ON =
      List.of("connection_error", "timeout", "408", "429", "5xx");

  /** The methods an endpoint may allow. */
  public static final Set<String> METHODS =
      Set.of("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS");

  /**
   * An endpoint with every setting at its default: POST only, no rate limit, 10 requests at once, 3
   * attempts of at most {@value #DEFAULT_ATTEMPT_TIMEOUT_MS} ms, the default backoff and breaker.
   *
   * @param baseUrl checked as {@link #baseUrl(String)} does
   * @throws DispatchInputException naming {@code base_url} when it is not a usable base URL
   */
  public static EndpointSpec of(URI baseUrl) {
    return new EndpointSpec(
        baseUrl(baseUrl.toString()),
        Set.of("POST"),
        0,
        1000,
        0,
        10,
        DEFAULT_ATTEMPT_TIMEOUT_MS,
        DEFAULT_MAX_ATTEMPTS,
        RetryBackoff.DEFAULT,
        DEFAULT_RETRY_ON,
        DEFAULT_RETRY_AFTER_CAP_MS,
        DEFAULT_LINE_TIMEOUT_MS,
        DEFAULT_RETENTION_MS,
        DEFAULT_READ_GRACE_MS,
        null,
        false,
        DEFAULT_BREAKER_FAILURES,
        DEFAULT_BREAKER_COOLDOWN_MS,
        EndpointFairness.OFF,
        null);
  }

  /** This endpoint with another fair dispatch. */
  public EndpointSpec withFairness(EndpointFairness fairness) {
    return new EndpointSpec(
        baseUrl,
        methods,
        rate,
        periodMs,
        burst,
        concurrency,
        attemptTimeoutMs,
        maxAttempts,
        backoff,
        retryOn,
        retryAfterCapMs,
        lineTimeoutMs,
        retentionMs,
        readGraceMs,
        expectedServiceMs,
        paused,
        breakerFailures,
        breakerCooldownMs,
        fairness,
        adaptive);
  }

  /** This endpoint with another adaptive concurrency (null: off). */
  public EndpointSpec withAdaptive(EndpointAdaptive adaptive) {
    return new EndpointSpec(
        baseUrl,
        methods,
        rate,
        periodMs,
        burst,
        concurrency,
        attemptTimeoutMs,
        maxAttempts,
        backoff,
        retryOn,
        retryAfterCapMs,
        lineTimeoutMs,
        retentionMs,
        readGraceMs,
        expectedServiceMs,
        paused,
        breakerFailures,
        breakerCooldownMs,
        fairness,
        adaptive);
  }

  /**
   * This endpoint paused or resumed: a paused endpoint accepts tasks and sends none.
   *
   * @param paused whether it is paused
   */
  public EndpointSpec withPaused(boolean paused) {
    return new EndpointSpec(
        baseUrl,
        methods,
        rate,
        periodMs,
        burst,
        concurrency,
        attemptTimeoutMs,
        maxAttempts,
        backoff,
        retryOn,
        retryAfterCapMs,
        lineTimeoutMs,
        retentionMs,
        readGraceMs,
        expectedServiceMs,
        paused,
        breakerFailures,
        breakerCooldownMs,
        fairness,
        adaptive);
  }

  /** The stored form (also the fields of an endpoint as the API shows it). */
  ObjectNode toStored() {
    ObjectNode node = DispatchJson.object();
    node.put("base_url", baseUrl.toString());
    ArrayNode m = node.putArray("methods");
    sortedMethods().forEach(m::add);
    node.put("rate", rate);
    node.put("period_ms", periodMs);
    node.put("burst", burst);
    node.put("concurrency", concurrency);
    node.put("attempt_timeout_ms", attemptTimeoutMs);
    node.put("max_attempts", maxAttempts);
    node.set("backoff", backoff.toStored());
    ArrayNode r = node.putArray("retry_on");
    retryOn.forEach(r::add);
    node.put("retry_after_cap_ms", retryAfterCapMs);
    node.put("line_timeout_ms", lineTimeoutMs);
    node.put("retention_ms", retentionMs);
    node.put("read_grace_ms", readGraceMs);
    if (expectedServiceMs == null) {
      node.putNull("expected_service_ms");
    } else {
      node.put("expected_service_ms", expectedServiceMs);
    }
    node.put("paused", paused);
    ObjectNode b = node.putObject("circuit_breaker");
    b.put("failures", breakerFailures);
    b.put("cooldown_ms", breakerCooldownMs);
    node.set("fairness", fairness.toStored());
    if (adaptive != null) {
      node.set("adaptive", adaptive.toStored());
    }
    return node;
  }

  /**
   * Reads the stored form ({@link #toStored()}); absent fields take their defaults.
   *
   * @throws IllegalArgumentException when it has no usable base URL
   */
  static EndpointSpec fromStored(JsonNode node) {
    Set<String> methods = new LinkedHashSet<>();
    node.path("methods").forEach(m -> methods.add(m.asText()));
    List<String> retryOn = new ArrayList<>();
    node.path("retry_on").forEach(r -> retryOn.add(r.asText()));
    JsonNode breaker = node.path("circuit_breaker");
    JsonNode expected = node.path("expected_service_ms");
    return new EndpointSpec(
        URI.create(node.path("base_url").asText()),
        methods.isEmpty() ? Set.of("POST") : Set.copyOf(methods),
        node.path("rate").asInt(0),
        node.path("period_ms").asLong(1000),
        node.path("burst").asInt(0),
        node.path("concurrency").asInt(10),
        node.path("attempt_timeout_ms").asLong(DEFAULT_ATTEMPT_TIMEOUT_MS),
        node.path("max_attempts").asInt(DEFAULT_MAX_ATTEMPTS),
        RetryBackoff.fromStored(node.path("backoff")),
        node.has("retry_on") ? List.copyOf(retryOn) : DEFAULT_RETRY_ON,
        node.path("retry_after_cap_ms").asLong(DEFAULT_RETRY_AFTER_CAP_MS),
        node.path("line_timeout_ms").asLong(DEFAULT_LINE_TIMEOUT_MS),
        node.path("retention_ms").asLong(DEFAULT_RETENTION_MS),
        node.path("read_grace_ms").asLong(DEFAULT_READ_GRACE_MS),
        expected.isNumber() ? expected.asLong() : null,
        node.path("paused").asBoolean(false),
        breaker.path("failures").asInt(DEFAULT_BREAKER_FAILURES),
        breaker.path("cooldown_ms").asLong(DEFAULT_BREAKER_COOLDOWN_MS),
        EndpointFairness.fromStored(node.get("fairness")),
        EndpointAdaptive.fromStored(node.get("adaptive")));
  }

  /** The burst in force: the one set, or a tenth of the rate (at least 1). */
  public int effectiveBurst() {
    return burst > 0 ? Math.min(burst, Math.max(1, rate)) : Math.max(1, rate / 10);
  }

  /**
   * The period the engine holds the rate over: the endpoint's and {@value #SEND_GUARD_MS} ms more,
   * at most {@link #MAX_PERIOD_MS} (the engine's longest). Sends take their slots at the moment of
   * sending (the engine's rate slot), so what is left between a slot and the request's arrival at
   * the target is the delivery itself; the guard keeps a few milliseconds of it from putting one
   * request more into a window as the target counts them. A period of a day is held as it is.
   */
  public long enginePeriodMs() {
    return Math.min(periodMs + SEND_GUARD_MS, MAX_PERIOD_MS);
  }

  /**
   * Checks what one setting cannot check alone: an adaptive {@code max} under the fixed {@code
   * concurrency}, which is its ceiling.
   *
   * @throws DispatchInputException {@code invalid_field} naming {@code adaptive.max}
   */
  public void checkTogether() {
    if (adaptive != null && concurrency > 0 && adaptive.max() > concurrency) {
      throw DispatchInputException.invalidField(
          "adaptive.max",
          "must be at most the endpoint's concurrency ("
              + concurrency
              + "), its ceiling; got "
              + adaptive.max());
    }
  }

  /** The requests this instance runs at once for the endpoint. */
  public int localConcurrency() {
    return concurrency == 0
        ? UNCAPPED_LOCAL_CONCURRENCY
        : Math.min(concurrency, MAX_LOCAL_CONCURRENCY);
  }

  /** The retry policy of this endpoint. */
  public RetryPolicy retryPolicy() {
    return new RetryPolicy(retryOn);
  }

  /**
   * Checks a base URL: absolute http or https with a host, no user info, query or fragment, no dot
   * segments. A trailing slash is dropped, so paths join it as {@code base + path}.
   *
   * @throws DispatchInputException {@code invalid_field} naming {@code base_url}, saying what is
   *     wrong
   */
  public static URI baseUrl(String text) {
    URI uri;
    try {
      uri = new URI(text);
    } catch (URISyntaxException e) {
      throw DispatchInputException.invalidField("base_url", "is not a valid URL: " + e.getReason());
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw DispatchInputException.invalidField("base_url", "must be an http or https URL");
    }
    if (uri.getHost() == null || uri.getRawUserInfo() != null) {
      throw DispatchInputException.invalidField("base_url", "must name a host, without user info");
    }
    if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
      throw DispatchInputException.invalidField("base_url", "must have no query and no fragment");
    }
    String path = uri.getRawPath() == null ? "" : uri.getRawPath();
    if (TargetPaths.hasDotSegmentOrEncodedTrick(path)) {
      throw DispatchInputException.invalidField(
          "base_url", "must not hold dot segments or encoded slashes");
    }
    while (path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    return URI.create(scheme + "://" + uri.getRawAuthority() + path);
  }

  /** The allowed methods in alphabetical order, as they are shown and stored. */
  public List<String> sortedMethods() {
    List<String> list = new ArrayList<>(methods);
    list.sort(null);
    return list;
  }
}
