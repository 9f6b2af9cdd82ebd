package io.lineup.api;

/**
 * The JSON names of a queue's settings in the HTTP API (the settings routes and a queue's view).
 * The backoff's four settings sit in one object, {@code backoff}; the others at the top.
 */
public enum QueueSettingField {
  /** Whether the queue is paused. */
  PAUSED(null, "paused"),
  /** Most leases per sliding period. */
  RATE_LIMIT(null, "rate_limit"),
  /** The period of the rate limit, in milliseconds. */
  RATE_PERIOD(null, "rate_period_ms"),
  /** How many leases may start at once under a rate limit. */
  RATE_BURST(null, "rate_burst"),
  /** Most jobs leased at once. */
  CONCURRENCY_LIMIT(null, "concurrency_limit"),
  /** Deliveries of a job that names none before it goes to dead letters. */
  MAX_ATTEMPTS(null, "max_attempts"),
  /** Lease length of a job that names none, in milliseconds. */
  TIME_TO_RUN(null, "ttr_ms"),
  /** Shape of the retry waits: {@code fixed} or {@code exponential}. */
  BACKOFF_KIND(QueueSettingField.BACKOFF, "kind"),
  /** First retry wait, in milliseconds. */
  BACKOFF_INITIAL(QueueSettingField.BACKOFF, "initial_ms"),
  /** Longest retry wait, in milliseconds. */
  BACKOFF_MAX(QueueSettingField.BACKOFF, "max_ms"),
  /** Largest fraction a retry wait is shortened by at random. */
  BACKOFF_JITTER(QueueSettingField.BACKOFF, "jitter"),
  /** How long finished records are kept, in milliseconds. */
  RETENTION(null, "retention_ms"),
  /** How many finished records are kept. */
  RETENTION_MAX(null, "retention_max"),
  /** How long serving one job is expected to take, in milliseconds. */
  EXPECTED_SERVICE_TIME(null, "expected_service_ms"),
  /** Replicas that must hold a publish before it is answered. */
  DURABLE_REPLICAS(null, "durable_replicas"),
  /** Whether the queue serves its fairness keys in turn. */
  FAIR(null, "fair"),
  /** Most jobs of one fairness key leased at once, for keys without their own. */
  KEY_CONCURRENCY(null, "key_concurrency"),
  /** Most leases of one fairness key per key rate period, for keys without their own. */
  KEY_RATE(null, "key_rate"),
  /** The period of the per-key rate, in milliseconds. */
  KEY_RATE_PERIOD(null, "key_rate_period_ms"),
  /** Most jobs of one fairness key waiting, for keys without their own. */
  KEY_MAX_WAITING(null, "key_max_waiting");

  /** The JSON object that holds the backoff's settings. */
  public static final String BACKOFF = "backoff";

  private final String group;
  private final String jsonName;

  QueueSettingField(String group, String jsonName) {
    this.group = group;
    this.jsonName = jsonName;
  }

  /** The JSON object the setting sits in ({@value #BACKOFF}), or null for a top-level one. */
  public String group() {
    return group;
  }

  /** The name within its object: {@code rate_limit}, {@code initial_ms}. */
  public String jsonName() {
    return jsonName;
  }

  /** The name with its group in front: {@code rate_limit}, {@code backoff.initial_ms}. */
  public String jsonPath() {
    return group == null ? jsonName : group + "." + jsonName;
  }
}
