package io.lineup.core;

import java.time.Duration;

/**
 * A queue's settings, stored in Redis and changeable at run time; every instance sees a change at
 * once. In a {@link #change()} builder, fields left null are not changed.
 *
 * @param paused leases return nothing while paused; publishing still works
 * @param rateLimit most leases per sliding second across all consumers; 0 = no limit
 * @param concurrencyLimit most jobs leased at once across all consumers; 0 = no limit
 * @param maxAttempts default deliveries before dead letters (jobs may set their own)
 * @param timeToRun default lease length (jobs may set their own)
 * @param backoff wait before a retry when the nack names none
 * @param retention how long finished records (done, cancelled, expired) are kept; zero deletes at
 *     once
 * @param retentionMax most finished records kept, oldest dropped first
 */
public record QueueSettings(
    Boolean paused,
    Integer rateLimit,
    Integer concurrencyLimit,
    Integer maxAttempts,
    Duration timeToRun,
    Backoff backoff,
    Duration retention,
    Integer retentionMax) {

  /** Default max attempts (mirrors lib/settings.lua; a test checks they agree). */
  public static final int DEFAULT_MAX_ATTEMPTS = 3;

  /** Default time-to-run. */
  public static final Duration DEFAULT_TIME_TO_RUN = Duration.ofSeconds(30);

  /** Default retention of finished records. */
  public static final Duration DEFAULT_RETENTION = Duration.ofHours(1);

  /** Default largest number of finished records kept per queue. */
  public static final int DEFAULT_RETENTION_MAX = 10_000;

  /** Highest rate limit, in leases per second. */
  public static final int MAX_RATE_LIMIT = 100_000;

  /** Highest concurrency limit. */
  public static final int MAX_CONCURRENCY_LIMIT = 1_000_000;

  /** An empty change: set the fields to change with the {@code with...} methods. */
  public static QueueSettings change() {
    return new QueueSettings(null, null, null, null, null, null, null, null);
  }

  public QueueSettings withPaused(boolean value) {
    return new QueueSettings(
        value,
        rateLimit,
        concurrencyLimit,
        maxAttempts,
        timeToRun,
        backoff,
        retention,
        retentionMax);
  }

  public QueueSettings withRateLimit(int perSecond) {
    return new QueueSettings(
        paused,
        perSecond,
        concurrencyLimit,
        maxAttempts,
        timeToRun,
        backoff,
        retention,
        retentionMax);
  }

  public QueueSettings withConcurrencyLimit(int limit) {
    return new QueueSettings(
        paused, rateLimit, limit, maxAttempts, timeToRun, backoff, retention, retentionMax);
  }

  public QueueSettings withMaxAttempts(int value) {
    return new QueueSettings(
        paused, rateLimit, concurrencyLimit, value, timeToRun, backoff, retention, retentionMax);
  }

  public QueueSettings withTimeToRun(Duration value) {
    return new QueueSettings(
        paused, rateLimit, concurrencyLimit, maxAttempts, value, backoff, retention, retentionMax);
  }

  public QueueSettings withBackoff(Backoff value) {
    return new QueueSettings(
        paused,
        rateLimit,
        concurrencyLimit,
        maxAttempts,
        timeToRun,
        value,
        retention,
        retentionMax);
  }

  public QueueSettings withRetention(Duration value) {
    return new QueueSettings(
        paused, rateLimit, concurrencyLimit, maxAttempts, timeToRun, backoff, value, retentionMax);
  }

  public QueueSettings withRetentionMax(int value) {
    return new QueueSettings(
        paused, rateLimit, concurrencyLimit, maxAttempts, timeToRun, backoff, retention, value);
  }
}
