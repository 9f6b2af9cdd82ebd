package io.lineup.consumer;

import io.lineup.consumer.observation.ObservationSettings;
import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link ConsumerLoop} runs; built with {@link #builder()}.
 *
 * @param concurrency jobs run at once (1 or more)
 * @param batch the most jobs one lease call asks for (1 or more)
 * @param callsInFlight lease calls on their way at once (1 or 2): with 2, the next call is sent
 *     while the source answers one, once at least half the slots are free for it
 * @param shutdownGrace how long {@link ConsumerLoop#close()} lets running jobs finish
 * @param limit the most jobs to lease in all, after which the loop stops leasing (0 = no limit)
 * @param stopWhenEmpty stop leasing when a call found no job and the source gave no advice to wait
 * @param stopOnLeaseError stop leasing when a lease call fails, rather than back off and try again;
 *     {@link ConsumerLoop#awaitEnd()} then throws its error
 * @param name the prefix of the loop's thread names (as in {@code name-worker-label})
 * @param label what the fetch thread's name ends with (the queue)
 * @param observation where each job handled is observed ({@code lineup.process}); {@link
 *     ObservationSettings#NOOP} observes nothing
 */
public record ConsumerOptions(
    int concurrency,
    int batch,
    int callsInFlight,
    Duration shutdownGrace,
    long limit,
    boolean stopWhenEmpty,
    boolean stopOnLeaseError,
    String name,
    String label,
    ObservationSettings observation) {
  /** Checks the bounds. */
  public ConsumerOptions {
    if (concurrency < 1) {
      throw new IllegalArgumentException("concurrency must be 1 or more, got " + concurrency);
    }
    if (batch < 1) {
      throw new IllegalArgumentException("batch must be 1 or more, got " + batch);
    }
    if (callsInFlight < 1 || callsInFlight > 2) {
      throw new IllegalArgumentException("callsInFlight must be 1 or 2, got " + callsInFlight);
    }
    Objects.requireNonNull(shutdownGrace, "shutdownGrace");
    if (shutdownGrace.isNegative()) {
      throw new IllegalArgumentException("shutdownGrace must not be negative");
    }
    if (limit < 0) {
      throw new IllegalArgumentException("limit must be 0 (none) or more, got " + limit);
    }
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(label, "label");
    Objects.requireNonNull(observation, "observation");
  }

  /** Options of concurrency 1, one call at a time, no grace, no limit; name "lineup". */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds {@link ConsumerOptions}; every setter returns this builder. */
  public static final class Builder {
    private int concurrency = 1;
    private int batch = Integer.MAX_VALUE;
    private int callsInFlight = 1;
    private Duration shutdownGrace = Duration.ZERO;
    private long limit;
    private boolean stopWhenEmpty;
    private boolean stopOnLeaseError;
    private String name = "lineup";
    private String label = "";
    private ObservationSettings observation = ObservationSettings.NOOP;

    private Builder() {}

    /** Jobs run at once. */
    public Builder concurrency(int value) {
      concurrency = value;
      return this;
    }

    /** The most jobs one lease call asks for (default: as many as slots are free). */
    public Builder batch(int value) {
      batch = value;
      return this;
    }

    /** Lease calls on their way at once (1 or 2). */
    public Builder callsInFlight(int value) {
      callsInFlight = value;
      return this;
    }

    /** How long close() lets running jobs finish. */
    public Builder shutdownGrace(Duration value) {
      shutdownGrace = value;
      return this;
    }

    /** The most jobs to lease in all (0 = no limit). */
    public Builder limit(long value) {
      limit = value;
      return this;
    }

    /** Stop leasing when a call found no job and the source gave no advice to wait. */
    public Builder stopWhenEmpty(boolean value) {
      stopWhenEmpty = value;
      return this;
    }

    /** Stop leasing when a lease call fails (awaitEnd() throws its error). */
    public Builder stopOnLeaseError(boolean value) {
      stopOnLeaseError = value;
      return this;
    }

    /** The prefix of the loop's thread names. */
    public Builder name(String value) {
      name = value;
      return this;
    }

    /** What the fetch thread's name ends with. */
    public Builder label(String value) {
      label = value;
      return this;
    }

    /** Where each job handled is observed; {@link ObservationSettings#NOOP} by default. */
    public Builder observation(ObservationSettings value) {
      observation = value;
      return this;
    }

    /** The options. */
    public ConsumerOptions build() {
      return new ConsumerOptions(
          concurrency,
          batch,
          callsInFlight,
          shutdownGrace,
          limit,
          stopWhenEmpty,
          stopOnLeaseError,
          name,
          label,
          observation);
    }
  }
}
