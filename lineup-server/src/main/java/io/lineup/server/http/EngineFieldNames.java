package io.lineup.server.http;

import io.lineup.api.PublishFields;
import io.lineup.core.model.QueueSetting;
import java.util.Map;

/**
 * Translates the field names the engine's {@code InvalidArgumentException} uses (Java names such as
 * {@code timeToRun}) into the names of the HTTP API (snake case with units, {@code ttr_ms}). Queue
 * settings are translated by their definitions ({@link QueueSetting#engineName()} to {@link
 * QueueSetting#jsonPath()}); the table here holds the other fields.
 */
final class EngineFieldNames {
  private static final Map<String, String> HTTP_NAMES =
      Map.ofEntries(
          // Job options; the two that are also queue settings have the same names there.
          Map.entry("timeToRun", PublishFields.TTR_MS),
          Map.entry("maxAttempts", PublishFields.MAX_ATTEMPTS),
          Map.entry("runAt", PublishFields.RUN_AT),
          Map.entry("delay", PublishFields.DELAY_MS),
          Map.entry("ttl", PublishFields.TTL_MS),
          Map.entry("uniqueKey", PublishFields.UNIQUE_KEY),
          Map.entry("uniqueWindow", PublishFields.UNIQUE_WINDOW_MS),
          Map.entry("retryDelay", "retry_delay_ms"),
          Map.entry("wait", "wait_ms"),
          Map.entry("redisUrl", "redis_url"));

  private EngineFieldNames() {}

  /** The HTTP name of an engine field; names that are the same in both pass through. */
  static String toHttp(String engineField) {
    String name = HTTP_NAMES.get(engineField);
    if (name != null) {
      return name;
    }
    return QueueSetting.byEngineName(engineField).map(QueueSetting::jsonPath).orElse(engineField);
  }
}
