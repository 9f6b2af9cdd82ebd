package io.lineup.core;

import io.lineup.consumer.observation.ObservationSettings;
import io.lineup.consumer.observation.ProcessObservationConvention;
import io.lineup.consumer.observation.PublishObservationConvention;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.Limits;
import io.lineup.core.model.RedisUnavailableException;
import io.micrometer.observation.ObservationRegistry;
import java.time.Duration;
import java.util.Objects;

/**
 * How an engine connects and behaves. Immutable; build with {@link #builder(String)}.
 *
 * @param redisUri {@code redis://host:port[/db]}, {@code rediss://...} or {@code
 *     redis-sentinel://...} (Lettuce URI syntax)
 * @param timeSource the one clock; {@link TimeSource#REDIS} unless a test injects a {@link
 *     ManualClock}
 * @param maxPayloadBytes largest payload accepted
 * @param commandTimeout longest wait for one Redis reply before {@link RedisUnavailableException}
 * @param maintenance whether this instance runs the background loops (promote, reclaim, expire,
 *     retention, and the driver that fires due schedules, {@link Schedules}); safe on every
 *     instance at once
 * @param maintenanceInterval pause between two rounds of each background loop
 * @param maxWaitingConnections most connections held by consumers blocked in a lease wait; more
 *     waiters queue for one
 * @param latencyListener told the latency of every Redis command; null for none
 * @param hostClock this machine's clock, used only where host time is harmless: the sanity bound on
 *     run-at times. Due times never use it.
 * @param callsInFlightPerQueue most publish calls, and separately most ack calls, this engine has
 *     in flight for one queue; publishes (acks) to that queue arriving beyond it wait for the next
 *     call to finish and go together as one call, of up to {@link Limits#MAX_BATCH} jobs and {@link
 *     #COMBINED_CALL_BYTES} bytes of payloads (results). 0 sends every publish and ack as its own
 *     call.
 * @param observation where publishes ({@code lineup.publish}) and the jobs workers handle ({@code
 *     lineup.process}) are observed; {@link ObservationSettings#NOOP} (the default) observes
 *     nothing and stores no trace context of its own (docs/tracing.md)
 */
public record LineupOptions(
    String redisUri,
    TimeSource timeSource,
    int maxPayloadBytes,
    Duration commandTimeout,
    boolean maintenance,
    Duration maintenanceInterval,
    int maxWaitingConnections,
    CommandLatencyListener latencyListener,
    java.time.Clock hostClock,
    int callsInFlightPerQueue,
    ObservationSettings observation) {

  public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(5);
  public static final Duration DEFAULT_MAINTENANCE_INTERVAL = Duration.ofMillis(500);
  public static final int DEFAULT_MAX_WAITING_CONNECTIONS = 512;

  /**
   * Default {@link #callsInFlightPerQueue}: two, so Redis runs one call while the engine prepares
   * the next, and a publish or ack never waits behind more than one call.
   */
  public static final int DEFAULT_CALLS_IN_FLIGHT_PER_QUEUE = 2;

  /**
   * Payload (result) bytes above which waiting publishes (acks) are not added to a combined call.
   */
  public static final int COMBINED_CALL_BYTES = 1 << 20;

  public LineupOptions {
    Objects.requireNonNull(redisUri, "redisUri");
    Objects.requireNonNull(timeSource, "timeSource");
    Objects.requireNonNull(hostClock, "hostClock");
    Objects.requireNonNull(observation, "observation");
    if (callsInFlightPerQueue < 0) {
      throw new InvalidArgumentException(
          "callsInFlightPerQueue", "must be 0 or more, got " + callsInFlightPerQueue);
    }
  }

  /** Options with every default, for this Redis. */
  public static Builder builder(String redisUri) {
    return new Builder(redisUri);
  }

  /** Builder of {@link LineupOptions}. */
  public static final class Builder {
    private final String redisUri;
    private TimeSource timeSource = TimeSource.REDIS;
    private int maxPayloadBytes = Limits.DEFAULT_MAX_PAYLOAD_BYTES;
    private Duration commandTimeout = DEFAULT_COMMAND_TIMEOUT;
    private boolean maintenance = true;
    private Duration maintenanceInterval = DEFAULT_MAINTENANCE_INTERVAL;
    private int maxWaitingConnections = DEFAULT_MAX_WAITING_CONNECTIONS;
    private CommandLatencyListener latencyListener;
    private java.time.Clock hostClock = java.time.Clock.systemUTC();
    private int callsInFlightPerQueue = DEFAULT_CALLS_IN_FLIGHT_PER_QUEUE;
    private ObservationRegistry observationRegistry = ObservationRegistry.NOOP;
    private boolean observationTenantTags;
    private PublishObservationConvention publishObservationConvention;
    private ProcessObservationConvention processObservationConvention;

    private Builder(String redisUri) {
      this.redisUri = redisUri;
    }

    public Builder timeSource(TimeSource timeSource) {
      this.timeSource = timeSource;
      return this;
    }

    public Builder maxPayloadBytes(int bytes) {
      this.maxPayloadBytes = bytes;
      return this;
    }

    public Builder commandTimeout(Duration timeout) {
      this.commandTimeout = timeout;
      return this;
    }

    public Builder maintenance(boolean on) {
      this.maintenance = on;
      return this;
    }

    public Builder maintenanceInterval(Duration interval) {
      this.maintenanceInterval = interval;
      return this;
    }

    public Builder maxWaitingConnections(int max) {
      this.maxWaitingConnections = max;
      return this;
    }

    public Builder latencyListener(CommandLatencyListener listener) {
      this.latencyListener = listener;
      return this;
    }

    public Builder hostClock(java.time.Clock clock) {
      this.hostClock = clock;
      return this;
    }

    /** See {@link LineupOptions#callsInFlightPerQueue()}; 0 turns combining off. */
    public Builder callsInFlightPerQueue(int calls) {
      this.callsInFlightPerQueue = calls;
      return this;
    }

    /**
     * The registry that observes publishes ({@code lineup.publish}, a producer span whose trace
     * context each job stores) and the jobs workers handle ({@code lineup.process}, a consumer span
     * continuing it). {@link ObservationRegistry#NOOP} by default: nothing is observed.
     *
     * @throws NullPointerException when null
     */
    public Builder observationRegistry(ObservationRegistry registry) {
      this.observationRegistry = Objects.requireNonNull(registry, "registry");
      return this;
    }

    /**
     * Whether observations carry the queue's namespace as a low-cardinality tag ({@code
     * lineup.namespace}); off by default, as it multiplies the metric series by the tenants.
     */
    public Builder observationTenantTags(boolean on) {
      this.observationTenantTags = on;
      return this;
    }

    /** Replaces the default names and tags of publish observations; null for the default. */
    public Builder publishObservationConvention(PublishObservationConvention convention) {
      this.publishObservationConvention = convention;
      return this;
    }

    /** Replaces the default names and tags of process observations; null for the default. */
    public Builder processObservationConvention(ProcessObservationConvention convention) {
      this.processObservationConvention = convention;
      return this;
    }

    public LineupOptions build() {
      return new LineupOptions(
          redisUri,
          timeSource,
          maxPayloadBytes,
          commandTimeout,
          maintenance,
          maintenanceInterval,
          maxWaitingConnections,
          latencyListener,
          hostClock,
          callsInFlightPerQueue,
          new ObservationSettings(
              observationRegistry,
              observationTenantTags,
              publishObservationConvention,
              processObservationConvention));
    }
  }
}
