package io.lineup.server.http;

import java.util.Map;

/**
 * Translates the field names the engine's {@code InvalidArgumentException} uses (Java names such as
 * {@code timeToRun}) into the names of the HTTP API (snake case with units, {@code ttr_ms}).
 */
final class EngineFieldNames {
  private static final Map<String, String> HTTP_NAMES =
      Map.ofEntries(
          Map.entry("timeToRun", "ttr_ms"),
          Map.entry("maxAttempts", "max_attempts"),
          Map.entry("runAt", "run_at"),
          Map.entry("delay", "delay_ms"),
          Map.entry("ttl", "ttl_ms"),
          Map.entry("uniqueKey", "unique_key"),
          Map.entry("uniqueWindow", "unique_window_ms"),
          Map.entry("retryDelay", "retry_delay_ms"),
          Map.entry("wait", "wait_ms"),
          Map.entry("rateLimit", "rate_limit"),
          Map.entry("concurrencyLimit", "concurrency_limit"),
          Map.entry("retention", "retention_ms"),
          Map.entry("retentionMax", "retention_max"),
          Map.entry("backoff.initial", "backoff.initial_ms"),
          Map.entry("backoff.max", "backoff.max_ms"),
          Map.entry("redisUrl", "redis_url"));

  private EngineFieldNames() {}

  /** The HTTP name of an engine field; names that are the same in both pass through. */
  static String toHttp(String engineField) {
    return HTTP_NAMES.getOrDefault(engineField, engineField);
  }
}
