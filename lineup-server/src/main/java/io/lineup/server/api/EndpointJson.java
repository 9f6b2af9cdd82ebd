package io.lineup.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.api.resource.Endpoint;
import io.lineup.core.model.AdaptiveSettings;
import io.lineup.core.model.AdaptiveState;
import io.lineup.core.model.QueueStats;
import io.lineup.dispatch.BreakerState;
import io.lineup.dispatch.EndpointAdaptive;
import io.lineup.dispatch.EndpointFairness;
import io.lineup.dispatch.EndpointSpec;
import io.lineup.dispatch.EndpointView;
import io.lineup.dispatch.RetryBackoff;
import io.lineup.dispatch.RetryPolicy;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.JsonFields;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The JSON of an endpoint: its settings read from a {@code PUT} body (docs/dispatch.md lists every
 * field with its range and default) and the endpoint as {@code GET} shows it.
 */
final class EndpointJson {
  private static final Set<String> FIELDS =
      Set.of(
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
          "adaptive");

  private static final Set<String> FAIRNESS_FIELDS =
      Set.of("enabled", "key_concurrency", "key_rate", "key_rate_period_ms", "key_max_waiting");

  private static final Set<String> ADAPTIVE_FIELDS =
      Set.of("min", "max", "initial", "target_latency_ms", "window_ms", "decrease");

  private static final Set<String> BACKOFF_FIELDS =
      Set.of("kind", "initial_ms", "max_ms", "jitter", "schedule_ms");

  private EndpointJson() {}

  static EndpointSpec parse(JsonNode body) {
    JsonFields f = JsonFields.of(body, "", FIELDS);
    URI base = EndpointSpec.baseUrl(f.requiredText("base_url", EndpointSpec.MAX_URL_LENGTH));
    List<String> methodList = f.optionalTextList("methods", EndpointSpec.MAX_LIST, 16);
    Set<String> methods = new LinkedHashSet<>();
    if (methodList == null) {
      methods.add("POST");
    } else {
      for (int i = 0; i < methodList.size(); i++) {
        String m = methodList.get(i).toUpperCase(Locale.ROOT);
        if (!EndpointSpec.METHODS.contains(m)) {
          throw ApiException.invalidField(
              "methods[" + i + "]",
              "must be one of " + String.join(", ", sorted(EndpointSpec.METHODS)));
        }
        methods.add(m);
      }
    }
    int rate = (int) f.longOr("rate", 0, EndpointSpec.MAX_RATE, 0);
    long period =
        f.longOr("period_ms", EndpointSpec.MIN_PERIOD_MS, EndpointSpec.MAX_PERIOD_MS, 1000);
    int burst = (int) f.longOr("burst", 0, EndpointSpec.MAX_RATE, 0);
    int concurrency = (int) f.longOr("concurrency", 0, EndpointSpec.MAX_CONCURRENCY, 10);
    long timeout = f.longOr("attempt_timeout_ms", 1, EndpointSpec.MAX_ATTEMPT_TIMEOUT_MS, 30_000);
    int maxAttempts =
        (int)
            f.longOr(
                "max_attempts", 1, EndpointSpec.MAX_ATTEMPTS, EndpointSpec.DEFAULT_MAX_ATTEMPTS);
    RetryBackoff backoff = backoff(f.optionalObject("backoff", BACKOFF_FIELDS));
    List<String> retryOn = f.optionalTextList("retry_on", EndpointSpec.MAX_LIST, 16);
    if (retryOn == null) {
      retryOn = EndpointSpec.DEFAULT_RETRY_ON;
    } else {
      for (int i = 0; i < retryOn.size(); i++) {
        if (!RetryPolicy.isOutcomeName(retryOn.get(i))) {
          throw ApiException.invalidField(
              "retry_on[" + i + "]",
              "must be connection_error, timeout, 4xx, 5xx or a status code from 100 to 599");
        }
      }
      retryOn = List.copyOf(retryOn);
    }
    long retryAfterCap =
        f.longOr(
            "retry_after_cap_ms",
            0,
            EndpointSpec.MAX_KEEP_MS,
            EndpointSpec.DEFAULT_RETRY_AFTER_CAP_MS);
    long lineTimeout =
        f.longOr(
            "line_timeout_ms", 1, EndpointSpec.MAX_KEEP_MS, EndpointSpec.DEFAULT_LINE_TIMEOUT_MS);
    long retention =
        f.longOr("retention_ms", 0, EndpointSpec.MAX_KEEP_MS, EndpointSpec.DEFAULT_RETENTION_MS);
    long readGrace =
        f.longOr("read_grace_ms", 0, EndpointSpec.MAX_KEEP_MS, EndpointSpec.DEFAULT_READ_GRACE_MS);
    Long expected = f.optionalLong("expected_service_ms", 1, EndpointSpec.MAX_ATTEMPT_TIMEOUT_MS);
    Boolean paused = f.optionalBoolean("paused");
    JsonFields breaker = f.optionalObject("circuit_breaker", Set.of("failures", "cooldown_ms"));
    int failures = EndpointSpec.DEFAULT_BREAKER_FAILURES;
    long cooldown = EndpointSpec.DEFAULT_BREAKER_COOLDOWN_MS;
    if (breaker != null) {
      failures = (int) breaker.longOr("failures", 0, 1000, EndpointSpec.DEFAULT_BREAKER_FAILURES);
      cooldown =
          breaker.longOr(
              "cooldown_ms",
              10,
              EndpointSpec.MAX_KEEP_MS,
              EndpointSpec.DEFAULT_BREAKER_COOLDOWN_MS);
    }
    return new EndpointSpec(
        base,
        Set.copyOf(methods),
        rate,
        period,
        burst,
        concurrency,
        timeout,
        maxAttempts,
        backoff,
        retryOn,
        retryAfterCap,
        lineTimeout,
        retention,
        readGrace,
        expected,
        paused != null && paused,
        failures,
        cooldown,
        fairness(f.optionalObject("fairness", FAIRNESS_FIELDS)),
        adaptive(f.optionalObject("adaptive", ADAPTIVE_FIELDS), concurrency));
  }

  /**
   * Reads {@code adaptive}: {@code min}, {@code max} and {@code target_latency_ms} required, the
   * rest optional (docs/adaptive.md gives ranges and defaults); absent or null = off. {@code max}
   * may not exceed a {@code concurrency} above 0, its ceiling.
   */
  private static EndpointAdaptive adaptive(JsonFields f, int concurrency) {
    if (f == null) {
      return null;
    }
    int min = (int) f.requiredLong("min", AdaptiveSettings.MIN_LIMIT, AdaptiveSettings.MAX_LIMIT);
    int ceiling = concurrency > 0 ? concurrency : AdaptiveSettings.MAX_LIMIT;
    if (min > ceiling) {
      throw ApiException.invalidField(
          f.path("min"),
          "must be at most the endpoint's concurrency (" + concurrency + "), got " + min);
    }
    int max = (int) f.requiredLong("max", min, ceiling);
    long target =
        f.requiredLong("target_latency_ms", 1, AdaptiveSettings.MAX_TARGET_LATENCY.toMillis());
    int initial = (int) f.longOr("initial", min, max, min);
    long window =
        f.longOr(
            "window_ms",
            AdaptiveSettings.MIN_WINDOW.toMillis(),
            AdaptiveSettings.MAX_WINDOW.toMillis(),
            AdaptiveSettings.defaultWindow(Duration.ofMillis(target)).toMillis());
    Double decrease =
        f.optionalNumber("decrease", AdaptiveSettings.MIN_DECREASE, AdaptiveSettings.MAX_DECREASE);
    return new EndpointAdaptive(
        min,
        max,
        initial,
        target,
        window,
        decrease == null ? AdaptiveSettings.DEFAULT_DECREASE : decrease);
  }

  /** Reads {@code fairness}: every field optional, absent ones at their defaults (off, 0, 1 s). */
  private static EndpointFairness fairness(JsonFields f) {
    if (f == null) {
      return EndpointFairness.OFF;
    }
    Boolean enabled = f.optionalBoolean("enabled");
    return new EndpointFairness(
        enabled != null && enabled,
        (int) f.longOr("key_concurrency", 0, EndpointFairness.MAX_KEY_CONCURRENCY, 0),
        (int) f.longOr("key_rate", 0, EndpointFairness.MAX_KEY_RATE, 0),
        f.longOr(
            "key_rate_period_ms",
            EndpointFairness.MIN_KEY_RATE_PERIOD_MS,
            EndpointFairness.MAX_KEY_RATE_PERIOD_MS,
            EndpointFairness.DEFAULT_KEY_RATE_PERIOD_MS),
        (int) f.longOr("key_max_waiting", 0, EndpointFairness.MAX_KEY_MAX_WAITING, 0));
  }

  /** The {@code adaptive} of an endpoint's view: its settings and the limit in Redis, or null. */
  private static Endpoint.Adaptive adaptive(EndpointAdaptive settings, AdaptiveState state) {
    if (settings == null) {
      return null;
    }
    return new Endpoint.Adaptive(
        settings.min(),
        settings.max(),
        settings.initial(),
        settings.targetLatencyMs(),
        settings.windowMs(),
        settings.decrease(),
        state == null ? null : state.limit(),
        state == null || state.reason().isEmpty() ? null : state.reason(),
        state == null || state.movedAt() == null ? null : state.movedAt().toEpochMilli(),
        state == null || state.holdUntil() == null ? null : state.holdUntil().toEpochMilli());
  }

  private static RetryBackoff backoff(JsonFields f) {
    if (f == null) {
      return RetryBackoff.DEFAULT;
    }
    String kind = f.optionalText("kind", 16);
    if (kind == null) {
      kind = f.has("schedule_ms") ? "schedule" : "exponential";
    }
    if (!RetryBackoff.KINDS.contains(kind)) {
      throw ApiException.invalidField(
          f.path("kind"), "must be exponential, fixed or schedule, got " + kind);
    }
    long initial =
        f.longOr("initial_ms", 0, RetryBackoff.MAX_WAIT_MS, RetryBackoff.DEFAULT.initialMs());
    long max = f.longOr("max_ms", 0, RetryBackoff.MAX_WAIT_MS, RetryBackoff.DEFAULT.maxMs());
    Double jitter = f.optionalNumber("jitter", 0.0, 1.0);
    List<Long> schedule = new ArrayList<>();
    if (f.has("schedule_ms")) {
      var node = f.raw("schedule_ms");
      if (!node.isArray() || node.isEmpty() || node.size() > EndpointSpec.MAX_LIST) {
        throw ApiException.invalidField(
            f.path("schedule_ms"),
            "must be an array of 1 to " + EndpointSpec.MAX_LIST + " waits in milliseconds");
      }
      for (int i = 0; i < node.size(); i++) {
        var step = node.get(i);
        if (!step.canConvertToLong()
            || step.asLong() < 0
            || step.asLong() > RetryBackoff.MAX_WAIT_MS) {
          throw ApiException.invalidField(
              f.path("schedule_ms") + "[" + i + "]",
              "must be a whole number of milliseconds from 0 to " + RetryBackoff.MAX_WAIT_MS);
        }
        schedule.add(step.asLong());
      }
    } else if (kind.equals("schedule")) {
      throw ApiException.invalidField(f.path("schedule_ms"), "is required for kind schedule");
    }
    return new RetryBackoff(
        kind,
        initial,
        max,
        jitter == null ? RetryBackoff.DEFAULT.jitter() : jitter,
        List.copyOf(schedule));
  }

  /**
   * An endpoint as the API shows it ({@link Endpoint}): its settings with every default filled in,
   * times, breaker and task counts.
   */
  static Endpoint view(EndpointView endpoint) {
    EndpointSpec spec = endpoint.spec();
    RetryBackoff backoff = spec.backoff();
    BreakerState breaker = endpoint.breaker();
    QueueStats stats = endpoint.tasks();
    return new Endpoint(
        endpoint.key().namespace(),
        endpoint.key().name(),
        spec.baseUrl().toString(),
        List.copyOf(spec.sortedMethods()),
        spec.rate(),
        spec.periodMs(),
        spec.burst(),
        spec.concurrency(),
        spec.attemptTimeoutMs(),
        spec.maxAttempts(),
        new Endpoint.Backoff(
            backoff.kind(),
            backoff.initialMs(),
            backoff.maxMs(),
            backoff.jitter(),
            backoff.scheduleMs().isEmpty() ? null : backoff.scheduleMs()),
        spec.retryOn(),
        spec.retryAfterCapMs(),
        spec.lineTimeoutMs(),
        spec.retentionMs(),
        spec.readGraceMs(),
        spec.expectedServiceMs(),
        spec.paused(),
        new Endpoint.CircuitBreaker(spec.breakerFailures(), spec.breakerCooldownMs()),
        new Endpoint.Fairness(
            spec.fairness().enabled(),
            spec.fairness().keyConcurrency(),
            spec.fairness().keyRate(),
            spec.fairness().keyRatePeriodMs(),
            spec.fairness().keyMaxWaiting()),
        adaptive(spec.adaptive(), endpoint.adaptive()),
        endpoint.createdAt(),
        endpoint.updatedAt(),
        new Endpoint.BreakerState(
            breaker.json(),
            breaker.state() == BreakerState.State.OPEN ? breaker.openUntil() : null,
            breaker.failures()),
        new Endpoint.TaskCounts(
            stats.ready() + stats.delayed(), stats.leased(), stats.dead(), stats.finished()),
        stats.serviceRate(),
        endpoint.key().queue().toString());
  }

  private static List<String> sorted(Set<String> names) {
    List<String> list = new ArrayList<>(names);
    list.sort(null);
    return list;
  }
}
