package io.lineup.client;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.api.KeyFields;
import java.time.Duration;

/**
 * A fairness key's own settings, all set at once by {@link KeysClient#set}: a value left unset
 * takes the queue's {@code key_*} setting (weight: 1), and the key is resumed unless {@link
 * #paused} says otherwise. Each setter returns this:
 *
 * <pre>{@code
 * KeySettings.queueDefaults().weight(3).maxWaiting(1000)
 * }</pre>
 *
 * The server checks the bounds and answers 400 naming the field.
 */
public final class KeySettings {
  private Integer weight;
  private Integer concurrency;
  private Integer rate;
  private Duration ratePeriod;
  private Integer maxWaiting;
  private boolean paused;

  private KeySettings() {}

  /** Settings that take every value from the queue, not paused. */
  public static KeySettings queueDefaults() {
    return new KeySettings();
  }

  /** The key's share of each turn, 1 to 100: weight w gets w jobs per turn to another's 1. */
  public KeySettings weight(int weight) {
    this.weight = weight;
    return this;
  }

  /** Most jobs of the key leased at once, 0 (no limit) to 1,000,000. */
  public KeySettings concurrency(int concurrency) {
    this.concurrency = concurrency;
    return this;
  }

  /** Most leases of the key per {@code period} (10 ms to a day), 0 (no limit) to 100,000. */
  public KeySettings rate(int rate, Duration period) {
    this.rate = rate;
    this.ratePeriod = period;
    return this;
  }

  /** Most leases of the key per the queue's {@code key_rate_period_ms}. */
  public KeySettings rate(int rate) {
    return rate(rate, null);
  }

  /** Most jobs of the key waiting, 0 (no limit) to 1,000,000,000; past it publishing is refused. */
  public KeySettings maxWaiting(int maxWaiting) {
    this.maxWaiting = maxWaiting;
    return this;
  }

  /** Whether the key is paused: its jobs are not leased, other keys' are. */
  public KeySettings paused(boolean paused) {
    this.paused = paused;
    return this;
  }

  /** The JSON body the route takes. */
  ObjectNode toJson() {
    ObjectNode node = Json.object();
    if (weight != null) {
      node.put(KeyFields.WEIGHT, weight);
    }
    if (concurrency != null) {
      node.put(KeyFields.CONCURRENCY, concurrency);
    }
    if (rate != null) {
      node.put(KeyFields.RATE, rate);
    }
    if (ratePeriod != null) {
      node.put(KeyFields.RATE_PERIOD_MS, ratePeriod.toMillis());
    }
    if (maxWaiting != null) {
      node.put(KeyFields.MAX_WAITING, maxWaiting);
    }
    node.put(KeyFields.PAUSED, paused);
    return node;
  }
}
