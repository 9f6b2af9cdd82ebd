package io.lineup.core;

import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A queue's settings, stored in Redis and changeable at run time; every instance sees a change at
 * once. In a {@link #change()} builder, fields left null are not changed. Each field's name, stored
 * form, bounds and default are defined once, in {@link QueueSetting}.
 *
 * @param paused leases return nothing while paused; publishing still works
 * @param rateLimit most leases per sliding period ({@code ratePeriod}, default a second) across all
 *     consumers; 0 = no limit
 * @param concurrencyLimit most jobs leased at once across all consumers; 0 = no limit
 * @param maxAttempts default deliveries before dead letters (jobs may set their own)
 * @param timeToRun default lease length (jobs may set their own)
 * @param backoff wait before a retry when the nack names none
 * @param retention how long finished records (done, cancelled, expired) are kept; zero deletes at
 *     once
 * @param retentionMax most finished records kept, oldest dropped first
 * @param expectedServiceTime how long one job is expected to take from lease to ack; ETAs use it
 *     (with the concurrency limit, or the jobs leased at the moment) until the queue has served
 *     jobs in the last minute; zero = none
 * @param ratePeriod the period of the rate limit: at most {@code rateLimit} leases in any sliding
 *     period of this length (default one second)
 * @param rateBurst how many leases may start at once under the rate limit; 0 = the whole rate
 * @param durableReplicas Redis replicas that must acknowledge a publish before it is answered, for
 *     publishes that name no {@link Durability}; 0 = answer at once
 */
public record QueueSettings(
    Boolean paused,
    Integer rateLimit,
    Integer concurrencyLimit,
    Integer maxAttempts,
    Duration timeToRun,
    Backoff backoff,
    Duration retention,
    Integer retentionMax,
    Duration expectedServiceTime,
    Duration ratePeriod,
    Integer rateBurst,
    Integer durableReplicas) {

  /** Default max attempts: {@link QueueSetting#MAX_ATTEMPTS}'s default. */
  public static final int DEFAULT_MAX_ATTEMPTS = QueueSetting.defaults().maxAttempts();

  /** Default time-to-run: {@link QueueSetting#TIME_TO_RUN}'s default. */
  public static final Duration DEFAULT_TIME_TO_RUN = QueueSetting.defaults().timeToRun();

  /** Default retention of finished records: {@link QueueSetting#RETENTION}'s default. */
  public static final Duration DEFAULT_RETENTION = QueueSetting.defaults().retention();

  /**
   * Default largest number of finished records kept per queue: {@link QueueSetting#RETENTION_MAX}'s
   * default.
   */
  public static final int DEFAULT_RETENTION_MAX = QueueSetting.defaults().retentionMax();

  /** Highest rate limit, in leases per second: {@link QueueSetting#RATE_LIMIT}'s maximum. */
  public static final int MAX_RATE_LIMIT = (int) QueueSetting.RATE_LIMIT.max();

  /** Highest concurrency limit: {@link QueueSetting#CONCURRENCY_LIMIT}'s maximum. */
  public static final int MAX_CONCURRENCY_LIMIT = (int) QueueSetting.CONCURRENCY_LIMIT.max();

  /** An empty change: set the fields to change with the {@code with...} methods. */
  public static QueueSettings change() {
    return new QueueSettings(
        null, null, null, null, null, null, null, null, null, null, null, null);
  }

  /**
   * A change from values keyed by setting, in the form of each setting's {@link QueueSetting.Type}
   * (as a JSON reader gives them: {@code Boolean}, {@code Long}, {@code Double}, {@code String});
   * settings absent or null are not changed. When a group ({@code backoff}) is given only in part,
   * its other settings are taken from {@code current}, which is called at most once and only then.
   *
   * @param values the values to set
   * @param current the settings in force, or null when every group is given whole
   * @return the change, for {@link Lineup#configure}
   * @throws InvalidArgumentException naming the setting's {@link QueueSetting#engineName()} when a
   *     value is of another type, out of range, or part of a group given in part without {@code
   *     current}
   */
  public static QueueSettings change(Map<QueueSetting, ?> values, Supplier<QueueSettings> current) {
    return QueueSetting.change(values, current);
  }

  /** Pauses ({@code true}) or resumes the queue. */
  public QueueSettings withPaused(boolean value) {
    return new QueueSettings(
        value,
        rateLimit,
        concurrencyLimit,
        maxAttempts,
        timeToRun,
        backoff,
        retention,
        retentionMax,
        expectedServiceTime,
        ratePeriod,
        rateBurst,
        durableReplicas);
  }

  /**
   * Sets the most leases per sliding second (0 = no limit); {@link QueueSetting#RATE_LIMIT} gives
   * the bounds, checked by {@link Lineup#configure}.
   */
  public QueueSettings withRateLimit(int perSecond) {
    return new QueueSettings(
        paused,
        perSecond,
        concurrencyLimit,
        maxAttempts,
        timeToRun,
        backoff,
        retention,
        retentionMax,
        expectedServiceTime,
        ratePeriod,
        rateBurst,
        durableReplicas);
  }

  /**
   * Sets the most jobs leased at once (0 = no limit); {@link QueueSetting#CONCURRENCY_LIMIT} gives
   * the bounds, checked by {@link Lineup#configure}.
   */
  public QueueSettings withConcurrencyLimit(int limit) {
    return new QueueSettings(
        paused,
        rateLimit,
        limit,
        maxAttempts,
        timeToRun,
        backoff,
        retention,
        retentionMax,
        expectedServiceTime,
        ratePeriod,
        rateBurst,
        durableReplicas);
  }

  /**
   * Sets the deliveries before dead letters, for jobs that set none; {@link
   * QueueSetting#MAX_ATTEMPTS} gives the bounds, checked by {@link Lineup#configure}.
   */
  public QueueSettings withMaxAttempts(int value) {
    return new QueueSettings(
        paused,
        rateLimit,
        concurrencyLimit,
        value,
        timeToRun,
        backoff,
        retention,
        retentionMax,
        expectedServiceTime,
        ratePeriod,
        rateBurst,
        durableReplicas);
  }

  /**
   * Sets the lease length, for jobs that set none; {@link QueueSetting#TIME_TO_RUN} gives the
   * bounds, checked by {@link Lineup#configure}.
   */
  public QueueSettings withTimeToRun(Duration value) {
    return new QueueSettings(
        paused,
        rateLimit,
        concurrencyLimit,
        maxAttempts,
        value,
        backoff,
        retention,
        retentionMax,
        expectedServiceTime,
        ratePeriod,
        rateBurst,
        durableReplicas);
  }

  /**
   * Sets the wait before a retry when a nack names none; a {@link Backoff} checks its own bounds
   * (the {@code BACKOFF_*} settings of {@link QueueSetting}) when it is made.
   */
  public QueueSettings withBackoff(Backoff value) {
    return new QueueSettings(
        paused,
        rateLimit,
        concurrencyLimit,
        maxAttempts,
        timeToRun,
        value,
        retention,
        retentionMax,
        expectedServiceTime,
        ratePeriod,
        rateBurst,
        durableReplicas);
  }

  /**
   * Sets how long finished records are kept (zero deletes them at once); {@link
   * QueueSetting#RETENTION} gives the bounds, checked by {@link Lineup#configure}.
   */
  public QueueSettings withRetention(Duration value) {
    return new QueueSettings(
        paused,
        rateLimit,
        concurrencyLimit,
        maxAttempts,
        timeToRun,
        backoff,
        value,
        retentionMax,
        expectedServiceTime,
        ratePeriod,
        rateBurst,
        durableReplicas);
  }

  /**
   * Sets the most finished records kept; {@link QueueSetting#RETENTION_MAX} gives the bounds,
   * checked by {@link Lineup#configure}.
   */
  public QueueSettings withRetentionMax(int value) {
    return new QueueSettings(
        paused,
        rateLimit,
        concurrencyLimit,
        maxAttempts,
        timeToRun,
        backoff,
        retention,
        value,
        expectedServiceTime,
        ratePeriod,
        rateBurst,
        durableReplicas);
  }

  /**
   * Sets how long one job is expected to take from lease to ack (zero = none), which ETAs use until
   * the queue has served jobs in the last minute; {@link QueueSetting#EXPECTED_SERVICE_TIME} gives
   * the bounds, checked by {@link Lineup#configure}.
   */
  public QueueSettings withExpectedServiceTime(Duration value) {
    return new QueueSettings(
        paused,
        rateLimit,
        concurrencyLimit,
        maxAttempts,
        timeToRun,
        backoff,
        retention,
        retentionMax,
        value,
        ratePeriod,
        rateBurst,
        durableReplicas);
  }

  /**
   * Sets the period of the rate limit; {@link QueueSetting#RATE_PERIOD} gives the bounds, checked
   * by {@link Lineup#configure}.
   */
  public QueueSettings withRatePeriod(Duration value) {
    return new QueueSettings(
        paused,
        rateLimit,
        concurrencyLimit,
        maxAttempts,
        timeToRun,
        backoff,
        retention,
        retentionMax,
        expectedServiceTime,
        value,
        rateBurst,
        durableReplicas);
  }

  /**
   * Sets how many leases may start at once under the rate limit (0 = the whole rate); {@link
   * QueueSetting#RATE_BURST} gives the bounds, checked by {@link Lineup#configure}.
   */
  public QueueSettings withRateBurst(int value) {
    return new QueueSettings(
        paused,
        rateLimit,
        concurrencyLimit,
        maxAttempts,
        timeToRun,
        backoff,
        retention,
        retentionMax,
        expectedServiceTime,
        ratePeriod,
        value,
        durableReplicas);
  }

  /**
   * Sets how many Redis replicas must acknowledge a publish before it is answered, for publishes
   * that name no {@link Durability} (0 = answer at once); {@link QueueSetting#DURABLE_REPLICAS}
   * gives the bounds, checked by {@link Lineup#configure}.
   */
  public QueueSettings withDurableReplicas(int value) {
    return new QueueSettings(
        paused,
        rateLimit,
        concurrencyLimit,
        maxAttempts,
        timeToRun,
        backoff,
        retention,
        retentionMax,
        expectedServiceTime,
        ratePeriod,
        rateBurst,
        value);
  }
}
