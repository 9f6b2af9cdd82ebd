package io.lineup.dispatch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.core.model.QueueSetting;

/**
 * An endpoint's fair dispatch: whether its tasks' keys (the customer, tenant or user a task is sent
 * for) are served in turn, and the limits each key gets under the endpoint's own rate and
 * concurrency. They become the settings {@code fair} and {@code key_*} of the endpoint's queue, so
 * the engine checks them in its lease script across all instances. A limit of 0 is no limit; the
 * ranges are the queue settings' ({@link QueueSetting}).
 *
 * @param enabled whether keys are served in turn; when false the key limits are kept but not
 *     applied
 * @param keyConcurrency most requests of one key in flight at once; 0 = no limit
 * @param keyRate most requests of one key started per {@code keyRatePeriodMs}, evenly spaced; 0 =
 *     no limit
 * @param keyRatePeriodMs the period of {@code keyRate}, in milliseconds
 * @param keyMaxWaiting most tasks of one key waiting (in line or delayed); a submit past it is
 *     refused with {@code key_backlog_full}; 0 = no limit
 */
public record EndpointFairness(
    boolean enabled, int keyConcurrency, int keyRate, long keyRatePeriodMs, int keyMaxWaiting) {

  /** Highest {@code key_concurrency}. */
  public static final int MAX_KEY_CONCURRENCY = (int) QueueSetting.KEY_CONCURRENCY.max();

  /** Highest {@code key_rate}. */
  public static final int MAX_KEY_RATE = (int) QueueSetting.KEY_RATE.max();

  /** Shortest {@code key_rate_period_ms}. */
  public static final long MIN_KEY_RATE_PERIOD_MS = QueueSetting.KEY_RATE_PERIOD.min();

  /** Longest {@code key_rate_period_ms}: 1 day. */
  public static final long MAX_KEY_RATE_PERIOD_MS = QueueSetting.KEY_RATE_PERIOD.max();

  /** Default {@code key_rate_period_ms}: 1 s. */
  public static final long DEFAULT_KEY_RATE_PERIOD_MS = 1000;

  /** Highest {@code key_max_waiting}. */
  public static final int MAX_KEY_MAX_WAITING = (int) QueueSetting.KEY_MAX_WAITING.max();

  /** Fair dispatch off: tasks go in priority and arrival order, whatever their keys. */
  public static final EndpointFairness OFF =
      new EndpointFairness(false, 0, 0, DEFAULT_KEY_RATE_PERIOD_MS, 0);

  /** The stored form, also the {@code fairness} object of an endpoint as the API shows it. */
  ObjectNode toStored() {
    ObjectNode node = DispatchJson.object();
    node.put("enabled", enabled);
    node.put("key_concurrency", keyConcurrency);
    node.put("key_rate", keyRate);
    node.put("key_rate_period_ms", keyRatePeriodMs);
    node.put("key_max_waiting", keyMaxWaiting);
    return node;
  }

  /** Reads the stored form ({@link #toStored()}); an endpoint stored without one has it off. */
  static EndpointFairness fromStored(JsonNode node) {
    if (node == null || !node.isObject()) {
      return OFF;
    }
    return new EndpointFairness(
        node.path("enabled").asBoolean(false),
        node.path("key_concurrency").asInt(0),
        node.path("key_rate").asInt(0),
        node.path("key_rate_period_ms").asLong(DEFAULT_KEY_RATE_PERIOD_MS),
        node.path("key_max_waiting").asInt(0));
  }
}
