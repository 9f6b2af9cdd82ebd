package io.lineup.client;

import com.fasterxml.jackson.databind.node.ObjectNode;
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
    body.put("paused", value);
    return this;
  }

  /** Most leases per sliding second across all consumers, 0 to 100000; 0 = no limit. */
  public SettingsChange rateLimit(long value) {
    body.put("rate_limit", value);
    return this;
  }

  /** Most jobs leased at once across all consumers, 0 to 1000000; 0 = no limit. */
  public SettingsChange concurrencyLimit(long value) {
    body.put("concurrency_limit", value);
    return this;
  }

  /** Deliveries before dead letters for jobs that set none, 1 to 1000. */
  public SettingsChange maxAttempts(int value) {
    body.put("max_attempts", value);
    return this;
  }

  /** Lease length for jobs that set none, 100 ms to 24 h. */
  public SettingsChange timeToRun(Duration value) {
    body.put("ttr_ms", value.toMillis());
    return this;
  }

  /** {@code fixed} or {@code exponential}. */
  public SettingsChange backoffKind(String value) {
    backoff().put("kind", value);
    return this;
  }

  /** Wait before the first retry when a nack names no delay, 0 to 24 h. */
  public SettingsChange backoffInitial(Duration value) {
    backoff().put("initial_ms", value.toMillis());
    return this;
  }

  /** Longest wait between retries, 0 to 24 h. */
  public SettingsChange backoffMax(Duration value) {
    backoff().put("max_ms", value.toMillis());
    return this;
  }

  /** Largest fraction a retry wait is shortened by at random, 0 to 1. */
  public SettingsChange backoffJitter(double value) {
    backoff().put("jitter", value);
    return this;
  }

  /** How long finished records are kept, 0 to 30 days. */
  public SettingsChange retention(Duration value) {
    body.put("retention_ms", value.toMillis());
    return this;
  }

  /** Most finished records kept, 0 to 10000000. */
  public SettingsChange retentionMax(long value) {
    body.put("retention_max", value);
    return this;
  }

  private ObjectNode backoff() {
    return body.has("backoff") ? (ObjectNode) body.get("backoff") : body.putObject("backoff");
  }

  ObjectNode toJson() {
    return body.deepCopy();
  }
}
