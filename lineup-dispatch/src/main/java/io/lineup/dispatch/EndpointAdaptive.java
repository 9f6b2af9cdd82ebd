package io.lineup.dispatch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.core.model.AdaptiveSettings;
import java.time.Duration;

/**
 * An endpoint's adaptive concurrency: the requests in flight follow the endpoint's answers within
 * {@code [min, max]}, one limit in Redis that every instance shares (the engine's {@link
 * AdaptiveSettings}; docs/adaptive.md). The endpoint's fixed {@code concurrency}, when set, is a
 * ceiling: {@code max} may not exceed it. Its {@code retry_after_cap_ms} caps a {@code Retry-After}
 * hold.
 *
 * @param min the lowest limit: 1 to {@value AdaptiveSettings#MAX_LIMIT}
 * @param max the highest limit: {@code min} to {@value AdaptiveSettings#MAX_LIMIT}
 * @param initial the limit a new adaptive limit starts at, clamped to {@code [min, max]}
 * @param targetLatencyMs the mean latency of a window above which the limit decreases: 1 ms to 15
 *     min
 * @param windowMs the measurement window: 100 ms to 10 min
 * @param decrease the factor of a decrease: 0.5 to 0.95
 * @throws DispatchInputException {@code invalid_field} naming {@code adaptive.<field>} when a value
 *     is out of its range
 */
public record EndpointAdaptive(
    int min, int max, int initial, long targetLatencyMs, long windowMs, double decrease) {

  public EndpointAdaptive {
    try {
      settings(min, max, initial, targetLatencyMs, windowMs, decrease, 0);
    } catch (io.lineup.core.model.InvalidArgumentException bad) {
      throw DispatchInputException.invalidField("adaptive." + bad.field(), bad.reason());
    }
    initial = Math.max(min, Math.min(max, initial));
  }

  /**
   * Adaptive concurrency from {@code min} to {@code max} with a target latency, starting at {@code
   * min}, the default window (twice the target, 500 ms to 10 min) and decrease ({@value
   * AdaptiveSettings#DEFAULT_DECREASE}).
   *
   * @throws DispatchInputException when a value is out of its range
   */
  public static EndpointAdaptive of(int min, int max, long targetLatencyMs) {
    return new EndpointAdaptive(
        min,
        max,
        min,
        targetLatencyMs,
        AdaptiveSettings.defaultWindow(Duration.ofMillis(Math.max(1, targetLatencyMs))).toMillis(),
        AdaptiveSettings.DEFAULT_DECREASE);
  }

  /** The engine's settings, a {@code Retry-After} held at most {@code holdCapMs}. */
  AdaptiveSettings toEngine(long holdCapMs) {
    return settings(min, max, initial, targetLatencyMs, windowMs, decrease, holdCapMs);
  }

  private static AdaptiveSettings settings(
      int min, int max, int initial, long target, long window, double decrease, long holdCapMs) {
    return new AdaptiveSettings(
        min,
        max,
        initial,
        Duration.ofMillis(target),
        Duration.ofMillis(window),
        decrease,
        Duration.ofMillis(holdCapMs));
  }

  /** The stored form, also the settings of an endpoint's {@code adaptive} as the API shows them. */
  ObjectNode toStored() {
    ObjectNode node = DispatchJson.object();
    node.put("min", min);
    node.put("max", max);
    node.put("initial", initial);
    node.put("target_latency_ms", targetLatencyMs);
    node.put("window_ms", windowMs);
    node.put("decrease", decrease);
    return node;
  }

  /** Reads the stored form ({@link #toStored()}); null (adaptive off) when there is none. */
  static EndpointAdaptive fromStored(JsonNode node) {
    if (node == null || !node.isObject()) {
      return null;
    }
    int min = node.path("min").asInt(1);
    long target = node.path("target_latency_ms").asLong(1000);
    return new EndpointAdaptive(
        min,
        node.path("max").asInt(min),
        node.path("initial").asInt(min),
        target,
        node.path("window_ms")
            .asLong(AdaptiveSettings.defaultWindow(Duration.ofMillis(target)).toMillis()),
        node.path("decrease").asDouble(AdaptiveSettings.DEFAULT_DECREASE));
  }
}
