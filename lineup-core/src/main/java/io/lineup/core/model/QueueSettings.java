package io.lineup.core.model;

import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A queue's settings, stored in Redis and changeable at run time; every instance sees a change at
 * once. In a change (from {@link #builder()}), fields left null are not changed. Each field's name,
 * stored form, bounds and default are defined once, in {@link QueueSetting}.
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
 * @param fair whether the queue serves its jobs' fairness keys in turn ({@link NewJob#key})
 * @param keyConcurrency fair queue: most jobs of one key leased at once, for keys without their own
 *     ({@link KeySettings}); 0 = no limit
 * @param keyRate fair queue: most leases of one key per {@code keyRatePeriod}, evenly spaced, for
 *     keys without their own; 0 = no limit
 * @param keyRatePeriod fair queue: the period of {@code keyRate} (default one second)
 * @param keyMaxWaiting fair queue: most jobs of one key waiting; a publish past it is refused
 *     ({@link KeyBacklogFullException}); 0 = no limit
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
    Integer durableReplicas,
    Boolean fair,
    Integer keyConcurrency,
    Integer keyRate,
    Duration keyRatePeriod,
    Integer keyMaxWaiting) {

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

  /**
   * A builder of a change with nothing set: settings left unset are not changed by {@link
   * Lineup#configure}.
   *
   * <pre>{@code
   * lineup.configure(queue, QueueSettings.builder().rateLimit(300).maxAttempts(5).build());
   * }</pre>
   */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from these settings, to change some of them. */
  public Builder mutate() {
    return new Builder()
        .paused(paused)
        .rateLimit(rateLimit)
        .concurrencyLimit(concurrencyLimit)
        .maxAttempts(maxAttempts)
        .timeToRun(timeToRun)
        .backoff(backoff)
        .retention(retention)
        .retentionMax(retentionMax)
        .expectedServiceTime(expectedServiceTime)
        .ratePeriod(ratePeriod)
        .rateBurst(rateBurst)
        .durableReplicas(durableReplicas)
        .fair(fair)
        .keyConcurrency(keyConcurrency)
        .keyRate(keyRate)
        .keyRatePeriod(keyRatePeriod)
        .keyMaxWaiting(keyMaxWaiting);
  }

  /**
   * A change from values keyed by setting, in the form of each setting's {@link QueueSetting.Type}
   * (as a JSON reader gives them: {@code Boolean}, {@code Long}, {@code Double}, {@code String});
   * settings absent or null are not changed. When a group ({@code backoff}) is given only in part,
   * its other settings are taken from {@code current}, which is called at most once and only then.
   *
   * @param values the values to set
   * @param current the settings in force, or null when every group is given whole
   * @return the change, for {@link io.lineup.core.Lineup#configure}
   * @throws InvalidArgumentException naming the setting's {@link QueueSetting#engineName()} when a
   *     value is of another type, out of range, or part of a group given in part without {@code
   *     current}
   */
  public static QueueSettings change(Map<QueueSetting, ?> values, Supplier<QueueSettings> current) {
    return QueueSetting.change(values, current);
  }

  /**
   * Builds {@link QueueSettings}: one method per setting, each returning this builder; a setting
   * given null (or never given) is left unset, which in a change means "not changed". Bounds are
   * checked in one place, by {@link io.lineup.core.Lineup#configure} against {@link QueueSetting};
   * a {@link Backoff} checks its own when it is made.
   */
  public static final class Builder {
    private Boolean paused;
    private Integer rateLimit;
    private Integer concurrencyLimit;
    private Integer maxAttempts;
    private Duration timeToRun;
    private Backoff backoff;
    private Duration retention;
    private Integer retentionMax;
    private Duration expectedServiceTime;
    private Duration ratePeriod;
    private Integer rateBurst;
    private Integer durableReplicas;
    private Boolean fair;
    private Integer keyConcurrency;
    private Integer keyRate;
    private Duration keyRatePeriod;
    private Integer keyMaxWaiting;

    private Builder() {}

    /** Pauses ({@code true}) or resumes ({@code false}) the queue. */
    public Builder paused(Boolean value) {
      this.paused = value;
      return this;
    }

    /**
     * The most leases per sliding period (0 = no limit); bounds: {@link QueueSetting#RATE_LIMIT}.
     */
    public Builder rateLimit(Integer perPeriod) {
      this.rateLimit = perPeriod;
      return this;
    }

    /**
     * The most jobs leased at once (0 = no limit); bounds: {@link QueueSetting#CONCURRENCY_LIMIT}.
     */
    public Builder concurrencyLimit(Integer limit) {
      this.concurrencyLimit = limit;
      return this;
    }

    /**
     * The deliveries before dead letters, for jobs that set none; bounds: {@link
     * QueueSetting#MAX_ATTEMPTS}.
     */
    public Builder maxAttempts(Integer value) {
      this.maxAttempts = value;
      return this;
    }

    /** The lease length, for jobs that set none; bounds: {@link QueueSetting#TIME_TO_RUN}. */
    public Builder timeToRun(Duration value) {
      this.timeToRun = value;
      return this;
    }

    /** The wait before a retry when a nack names none. */
    public Builder backoff(Backoff value) {
      this.backoff = value;
      return this;
    }

    /**
     * How long finished records are kept (zero deletes them at once); bounds: {@link
     * QueueSetting#RETENTION}.
     */
    public Builder retention(Duration value) {
      this.retention = value;
      return this;
    }

    /** The most finished records kept; bounds: {@link QueueSetting#RETENTION_MAX}. */
    public Builder retentionMax(Integer value) {
      this.retentionMax = value;
      return this;
    }

    /**
     * How long one job is expected to take from lease to ack (zero = none), which ETAs use until
     * the queue has served jobs in the last minute; bounds: {@link
     * QueueSetting#EXPECTED_SERVICE_TIME}.
     */
    public Builder expectedServiceTime(Duration value) {
      this.expectedServiceTime = value;
      return this;
    }

    /** The period of the rate limit; bounds: {@link QueueSetting#RATE_PERIOD}. */
    public Builder ratePeriod(Duration value) {
      this.ratePeriod = value;
      return this;
    }

    /**
     * How many leases may start at once under the rate limit (0 = the whole rate); bounds: {@link
     * QueueSetting#RATE_BURST}.
     */
    public Builder rateBurst(Integer value) {
      this.rateBurst = value;
      return this;
    }

    /**
     * How many Redis replicas must acknowledge a publish before it is answered, for publishes that
     * name no {@link Durability} (0 = answer at once); bounds: {@link
     * QueueSetting#DURABLE_REPLICAS}.
     */
    public Builder durableReplicas(Integer value) {
      this.durableReplicas = value;
      return this;
    }

    /** Whether the queue serves its fairness keys in turn; see {@link QueueSetting#FAIR}. */
    public Builder fair(Boolean value) {
      this.fair = value;
      return this;
    }

    /**
     * Fair queue: most jobs of one key leased at once; see {@link QueueSetting#KEY_CONCURRENCY}.
     */
    public Builder keyConcurrency(Integer value) {
      this.keyConcurrency = value;
      return this;
    }

    /** Fair queue: most leases of one key per period; see {@link QueueSetting#KEY_RATE}. */
    public Builder keyRate(Integer value) {
      this.keyRate = value;
      return this;
    }

    /** Fair queue: the period of the per-key rate; see {@link QueueSetting#KEY_RATE_PERIOD}. */
    public Builder keyRatePeriod(Duration value) {
      this.keyRatePeriod = value;
      return this;
    }

    /** Fair queue: most jobs of one key waiting; see {@link QueueSetting#KEY_MAX_WAITING}. */
    public Builder keyMaxWaiting(Integer value) {
      this.keyMaxWaiting = value;
      return this;
    }

    /** The settings; nothing is checked here (see {@link io.lineup.core.Lineup#configure}). */
    public QueueSettings build() {
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
          durableReplicas,
          fair,
          keyConcurrency,
          keyRate,
          keyRatePeriod,
          keyMaxWaiting);
    }
  }
}
