package io.lineup.client;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.api.QueueSettingField;
import java.time.Duration;

/**
 * Queue settings to change; those not set keep their value (so do the backoff parts not set). At
 * least one is needed. The server checks each range and answers 400 naming the field.
 *
 * <pre>{@code
 * client.configure(queue, SettingsChange.create().rateLimit(300).backoffInitial(Duration.ofSeconds(2)));
 * }</pre>
 */
public final class SettingsChange {
  private final ObjectNode body = Json.object();

  private SettingsChange() {}

  /** An empty change. */
  public static SettingsChange create() {
    return new SettingsChange();
  }

  /** Pauses (true) or resumes (false) leasing. */
  public SettingsChange paused(boolean value) {
    return put(QueueSettingField.PAUSED, value);
  }

  /** Most leases per sliding second across all consumers, 0 to 100000; 0 = no limit. */
  public SettingsChange rateLimit(long value) {
    return put(QueueSettingField.RATE_LIMIT, value);
  }

  /** Most jobs leased at once across all consumers, 0 to 1000000; 0 = no limit. */
  public SettingsChange concurrencyLimit(long value) {
    return put(QueueSettingField.CONCURRENCY_LIMIT, value);
  }

  /** Deliveries before dead letters for jobs that set none, 1 to 1000. */
  public SettingsChange maxAttempts(int value) {
    return put(QueueSettingField.MAX_ATTEMPTS, value);
  }

  /** Lease length for jobs that set none, 100 ms to 24 h. */
  public SettingsChange timeToRun(Duration value) {
    return put(QueueSettingField.TIME_TO_RUN, value.toMillis());
  }

  /** {@code fixed} or {@code exponential}. */
  public SettingsChange backoffKind(String value) {
    return put(QueueSettingField.BACKOFF_KIND, value);
  }

  /** Wait before the first retry when a nack names no delay, 0 to 24 h. */
  public SettingsChange backoffInitial(Duration value) {
    return put(QueueSettingField.BACKOFF_INITIAL, value.toMillis());
  }

  /** Longest wait between retries, 0 to 24 h. */
  public SettingsChange backoffMax(Duration value) {
    return put(QueueSettingField.BACKOFF_MAX, value.toMillis());
  }

  /** Largest fraction a retry wait is shortened by at random, 0 to 1. */
  public SettingsChange backoffJitter(double value) {
    return put(QueueSettingField.BACKOFF_JITTER, value);
  }

  /** How long finished records are kept, 0 to 30 days. */
  public SettingsChange retention(Duration value) {
    return put(QueueSettingField.RETENTION, value.toMillis());
  }

  /** Most finished records kept, 0 to 10000000. */
  public SettingsChange retentionMax(long value) {
    return put(QueueSettingField.RETENTION_MAX, value);
  }

  /** The period of the rate limit, 10 ms to 24 h (default a second). */
  public SettingsChange ratePeriod(Duration value) {
    return put(QueueSettingField.RATE_PERIOD, value.toMillis());
  }

  /**
   * How many leases may start at once under a rate limit, 0 to 100000: 0 lets the whole rate go at
   * once; n lets n go at once, then spaces the leases evenly.
   */
  public SettingsChange rateBurst(long value) {
    return put(QueueSettingField.RATE_BURST, value);
  }

  /**
   * Time one job is expected to take from lease to ack, 0 to 24 h, which ETAs use until the queue
   * has served jobs; zero = none.
   */
  public SettingsChange expectedServiceTime(Duration value) {
    return put(QueueSettingField.EXPECTED_SERVICE_TIME, value.toMillis());
  }

  /**
   * Redis replicas that must acknowledge a publish before it is answered, for publishes that name
   * none; 0 = answer at once.
   */
  public SettingsChange durableReplicas(int value) {
    return put(QueueSettingField.DURABLE_REPLICAS, value);
  }

  /**
   * Whether the queue serves its fairness keys in turn ({@link NewJob#key}, {@link KeysClient}).
   */
  public SettingsChange fair(boolean value) {
    return put(QueueSettingField.FAIR, value);
  }

  /** Most jobs of one fairness key leased at once, for keys without their own; 0 = no limit. */
  public SettingsChange keyConcurrency(int value) {
    return put(QueueSettingField.KEY_CONCURRENCY, value);
  }

  /** Most leases of one fairness key per key rate period, for keys without their own; 0 = none. */
  public SettingsChange keyRate(int value) {
    return put(QueueSettingField.KEY_RATE, value);
  }

  /** The period of {@link #keyRate}, 10 ms to 24 h (default a second). */
  public SettingsChange keyRatePeriod(Duration value) {
    return put(QueueSettingField.KEY_RATE_PERIOD, value.toMillis());
  }

  /**
   * Most jobs of one fairness key waiting, for keys without their own; a publish past it is refused
   * ({@link KeyBacklogFullException}); 0 = no limit.
   */
  public SettingsChange keyMaxWaiting(int value) {
    return put(QueueSettingField.KEY_MAX_WAITING, value);
  }

  private SettingsChange put(QueueSettingField field, Object value) {
    ObjectNode object = body;
    if (field.group() != null) {
      object =
          body.has(field.group())
              ? (ObjectNode) body.get(field.group())
              : body.putObject(field.group());
    }
    object.set(field.jsonName(), Json.MAPPER.valueToTree(value));
    return this;
  }

  ObjectNode toJson() {
    return body.deepCopy();
  }
}
