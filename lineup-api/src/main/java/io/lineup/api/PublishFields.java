package io.lineup.api;

import java.util.Set;

/** The JSON names of a job's fields in a publish body, as the server reads them. */
public final class PublishFields {
  /** The payload as JSON. */
  public static final String PAYLOAD = "payload";

  /** The payload as base64 bytes, instead of {@link #PAYLOAD}. */
  public static final String PAYLOAD_BASE64 = "payload_base64";

  /** The caller's id for the job. */
  public static final String ID = "id";

  /** The job's priority. */
  public static final String PRIORITY = "priority";

  /** How long to wait before the job is ready, in milliseconds. */
  public static final String DELAY_MS = "delay_ms";

  /** When the job is ready, in milliseconds since the epoch, instead of {@link #DELAY_MS}. */
  public static final String RUN_AT = "run_at";

  /** Deliveries before dead letters. */
  public static final String MAX_ATTEMPTS = "max_attempts";

  /** Lease length, in milliseconds. */
  public static final String TTR_MS = "ttr_ms";

  /** How long the job may wait to be served before it expires, in milliseconds. */
  public static final String TTL_MS = "ttl_ms";

  /** A key that makes the job unique among the queue's jobs for a window. */
  public static final String UNIQUE_KEY = "unique_key";

  /** The window of {@link #UNIQUE_KEY}, in milliseconds. */
  public static final String UNIQUE_WINDOW_MS = "unique_window_ms";

  /**
   * The latest start of the job, in milliseconds since the epoch: refused ({@code
   * deadline_unreachable}) when the queue's ETA cannot meet it, else its TTL.
   */
  public static final String START_BY = DeadlineFields.START_BY;

  /** {@link #START_BY} as a time from the publish, in milliseconds. */
  public static final String START_WITHIN_MS = DeadlineFields.START_WITHIN_MS;

  /**
   * The job's fairness key: the tenant, customer or user a fair queue serves it for (1 to 128
   * characters of letters, digits and {@code - _ . : @ / + =}).
   */
  public static final String KEY = "key";

  /** Every field a job of a publish body may have. */
  public static final Set<String> ALL =
      Set.of(
          PAYLOAD,
          PAYLOAD_BASE64,
          ID,
          PRIORITY,
          DELAY_MS,
          RUN_AT,
          MAX_ATTEMPTS,
          TTR_MS,
          TTL_MS,
          UNIQUE_KEY,
          UNIQUE_WINDOW_MS,
          START_BY,
          START_WITHIN_MS,
          KEY);

  private PublishFields() {}
}
