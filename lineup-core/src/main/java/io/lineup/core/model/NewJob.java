package io.lineup.core.model;

import io.lineup.api.TraceContext;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A job to publish: its payload and options. Every option left unset takes the queue's setting (max
 * attempts, time-to-run) or nothing (no delay, no TTL, a generated id, no unique key).
 *
 * <p>Checked when published, against the limits {@link Limits} documents; a bad value throws {@link
 * InvalidArgumentException} naming the field.
 */
public final class NewJob {
  private final byte[] payload;
  private String id;
  private int priority;
  private Duration delay;
  private Instant runAt;
  private Integer maxAttempts;
  private Duration timeToRun;
  private Duration ttl;
  private Instant startBy;
  private String uniqueKey;
  private Duration uniqueWindow;
  private String key;
  private String traceparent;
  private String tracestate;

  private NewJob(byte[] payload) {
    this.payload = Objects.requireNonNull(payload, "payload");
  }

  /** A job carrying these bytes. */
  public static NewJob of(byte[] payload) {
    return new NewJob(payload);
  }

  /** A job carrying this text as UTF-8 (JSON included). */
  public static NewJob ofText(String payload) {
    return new NewJob(payload.getBytes(StandardCharsets.UTF_8));
  }

  /** A caller-given id: publishing the same id again returns the existing job. */
  public NewJob id(String id) {
    this.id = id;
    return this;
  }

  /**
   * Priority from {@value Limits#MIN_PRIORITY} to {@value Limits#MAX_PRIORITY}; higher runs first,
   * 0 is normal.
   */
  public NewJob priority(int priority) {
    this.priority = priority;
    return this;
  }

  /** Run no earlier than this long after publishing (millisecond precision). */
  public NewJob delay(Duration delay) {
    this.delay = delay;
    return this;
  }

  /** Run no earlier than this instant (Redis server time; millisecond precision). */
  public NewJob runAt(Instant runAt) {
    this.runAt = runAt;
    return this;
  }

  /** Deliveries before the job goes to dead letters (1 to {@value Limits#MAX_ATTEMPTS}). */
  public NewJob maxAttempts(int maxAttempts) {
    this.maxAttempts = maxAttempts;
    return this;
  }

  /** Lease length: a leased job not acked or extended within it is delivered again. */
  public NewJob timeToRun(Duration timeToRun) {
    this.timeToRun = timeToRun;
    return this;
  }

  /** The job disappears (state EXPIRED) if not finished this long after publishing. */
  public NewJob ttl(Duration ttl) {
    this.ttl = ttl;
    return this;
  }

  /**
   * The job must start (be leased) by this instant, by the engine's clock (Redis server time;
   * millisecond precision). Publishing reads the queue's ETA once (one more Redis call, only for a
   * job with a start-by time) and refuses the job with {@link DeadlineUnreachableException},
   * writing nothing of the batch, when it has passed or when the later of the job's due time and
   * the high end of the ETA band of the back of the ready line is after it. A queue without an ETA
   * (paused, or nothing measured and no expected service time) accepts it unless it has passed. An
   * accepted job gets the time left until then as its {@link #ttl} (a shorter ttl given stays): one
   * not started by then expires (state {@code EXPIRED}). The TTL also bounds a job leased in time
   * but still running then.
   *
   * @param startBy the latest start, or null for none
   */
  public NewJob startBy(Instant startBy) {
    this.startBy = startBy;
    return this;
  }

  /** A second publish with the same key within {@code window} returns the first job. */
  public NewJob uniqueKey(String key, Duration window) {
    this.uniqueKey = key;
    this.uniqueWindow = window;
    return this;
  }

  /**
   * The fairness key: the tenant, customer or user this job is served for ({@link FairnessKey}
   * states the characters allowed). A fair queue (setting {@code fair}) serves its keys in turn;
   * any other queue stores the key and ignores it. Jobs without a key share one unnamed key.
   *
   * @param key the key, or null for none
   */
  public NewJob key(String key) {
    this.key = key;
    return this;
  }

  /**
   * The W3C {@code traceparent} of the span that publishes this job, stored with it and returned on
   * lease and read ({@link TraceContext} states the form). An Observation registry given to the
   * engine sets it itself; set it here to carry a trace from elsewhere.
   *
   * @param traceparent {@code 00-<32 hex>-<16 hex>-<2 hex>}, or null for none
   */
  public NewJob traceparent(String traceparent) {
    this.traceparent = traceparent;
    return this;
  }

  /**
   * The W3C {@code tracestate} that goes with {@link #traceparent(String)} (ignored without one):
   * at most {@value TraceContext#MAX_TRACESTATE_LENGTH} printable ASCII characters.
   *
   * @param tracestate the tracestate, or null for none
   */
  public NewJob tracestate(String tracestate) {
    this.tracestate = tracestate;
    return this;
  }

  /** The traceparent given ({@link #traceparent(String)}), or null. */
  public String traceparent() {
    return traceparent;
  }

  /** The tracestate given ({@link #tracestate(String)}), or null. */
  public String tracestate() {
    return tracestate;
  }

  /**
   * The trace context given, or null when no traceparent was.
   *
   * @throws InvalidArgumentException naming {@code traceparent} or {@code tracestate} when one
   *     breaks the W3C form ({@link TraceContext})
   */
  public TraceContext traceContext() {
    if (traceparent == null) {
      return null;
    }
    if (!TraceContext.isTraceparent(traceparent)) {
      throw new InvalidArgumentException("traceparent", TraceContext.TRACEPARENT_RULE);
    }
    if (tracestate != null && !TraceContext.isTracestate(tracestate)) {
      throw new InvalidArgumentException("tracestate", TraceContext.TRACESTATE_RULE);
    }
    return new TraceContext(traceparent, tracestate);
  }

  /** The fairness key ({@link #key(String)}), or null. */
  public String key() {
    return key;
  }

  public byte[] payload() {
    return payload;
  }

  public String id() {
    return id;
  }

  public int priority() {
    return priority;
  }

  public Duration delay() {
    return delay;
  }

  public Instant runAt() {
    return runAt;
  }

  public Integer maxAttempts() {
    return maxAttempts;
  }

  public Duration timeToRun() {
    return timeToRun;
  }

  public Duration ttl() {
    return ttl;
  }

  /** The latest start asked for ({@link #startBy(Instant)}), or null. */
  public Instant startBy() {
    return startBy;
  }

  public String uniqueKey() {
    return uniqueKey;
  }

  public Duration uniqueWindow() {
    return uniqueWindow;
  }
}
