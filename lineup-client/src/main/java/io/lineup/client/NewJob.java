package io.lineup.client;

import io.lineup.api.PublishFields;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A job to publish: its payload and optional delay, priority, attempts, time-to-run, time-to-live,
 * id, unique key and fairness key. Each setter returns this, so a job reads as one expression:
 *
 * <pre>{@code
 * NewJob.ofJson("{\"order\":42}").delay(Duration.ofMinutes(30)).id("order-42")
 * }</pre>
 *
 * The server checks every bound and answers 400 naming the field; see docs/server.md.
 */
public final class NewJob {
  private final byte[] payload;
  private final boolean json;
  private String id;
  private Integer priority;
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

  private NewJob(byte[] payload, boolean json) {
    this.payload = Objects.requireNonNull(payload, "payload");
    this.json = json;
  }

  /** A job whose payload is these bytes, sent as base64 and stored exactly. */
  public static NewJob of(byte[] payload) {
    return new NewJob(payload.clone(), false);
  }

  /** A job whose payload is this text's UTF-8 bytes, stored exactly. */
  public static NewJob ofText(String payload) {
    return new NewJob(payload.getBytes(StandardCharsets.UTF_8), false);
  }

  /**
   * A job whose payload is this JSON value, sent as JSON; the server stores its compact form.
   *
   * @throws IllegalArgumentException when the text is not exactly one JSON value
   */
  public static NewJob ofJson(String json) {
    Json.parse(json); // refuse bad JSON here, with the caller's stack
    return new NewJob(json.getBytes(StandardCharsets.UTF_8), true);
  }

  /**
   * A caller-given id (1-128 characters of {@code A-Z a-z 0-9 _ . : -}): publishing is idempotent.
   */
  public NewJob id(String id) {
    this.id = id;
    return this;
  }

  /** Priority, -255 to 255; higher runs first. At most the token's maximum priority. */
  public NewJob priority(int priority) {
    this.priority = priority;
    return this;
  }

  /** Due this long after publishing (0 to ten years); millisecond precision. */
  public NewJob delay(Duration delay) {
    this.delay = delay;
    this.runAt = null;
    return this;
  }

  /** Due at this time (Redis server clock), up to ten years ahead. */
  public NewJob runAt(Instant runAt) {
    this.runAt = runAt;
    this.delay = null;
    return this;
  }

  /** Deliveries before dead letters, 1 to 1000; default the queue's. */
  public NewJob maxAttempts(int maxAttempts) {
    this.maxAttempts = maxAttempts;
    return this;
  }

  /** Lease length, 100 ms to 24 h; default the queue's. */
  public NewJob timeToRun(Duration timeToRun) {
    this.timeToRun = timeToRun;
    return this;
  }

  /**
   * The latest start (lease) of the job: refused at publish ({@link DeadlineUnreachableException})
   * when the queue's ETA for the back of its line cannot meet it or it has passed; otherwise the
   * job's TTL is the time left until it (a shorter {@link #ttl} stays).
   *
   * @param startBy the latest start (millisecond precision), or null for none
   */
  public NewJob startBy(Instant startBy) {
    this.startBy = startBy;
    return this;
  }

  /** The job expires this long after publishing when not finished, 1 ms to ten years. */
  public NewJob ttl(Duration ttl) {
    this.ttl = ttl;
    return this;
  }

  /**
   * Deduplication: another publish with this key within the window answers this job instead.
   *
   * @param key 1 to 256 bytes
   * @param window 1 ms to 30 days
   */
  public NewJob uniqueKey(String key, Duration window) {
    this.uniqueKey = key;
    this.uniqueWindow = window;
    return this;
  }

  /**
   * The fairness key: the tenant, customer or user a fair queue serves the job for (1 to 128
   * characters of letters, digits and {@code - _ . : @ / + =}). A queue that is not fair stores it
   * and ignores it. Publishing past the key's most waiting jobs is refused with {@link
   * KeyBacklogFullException}.
   *
   * @param key the key, or null for none
   */
  public NewJob key(String key) {
    this.key = key;
    return this;
  }

  /**
   * The W3C {@code traceparent} to store with the job, sent in the publish request's {@code
   * traceparent} header (a bulk publish sends the first one its jobs carry). A client built with an
   * Observation registry sets it itself, from its publish span; set it here to carry a trace from
   * elsewhere. The server ignores an invalid one.
   *
   * @param traceparent {@code 00-<32 hex>-<16 hex>-<2 hex>}, or null for none
   */
  public NewJob traceparent(String traceparent) {
    this.traceparent = traceparent;
    return this;
  }

  /**
   * The W3C {@code tracestate} that goes with {@link #traceparent(String)}.
   *
   * @param tracestate the tracestate, or null for none
   */
  public NewJob tracestate(String tracestate) {
    this.tracestate = tracestate;
    return this;
  }

  /** The traceparent given or set by the client's publish span, or null. */
  public String traceparent() {
    return traceparent;
  }

  /** The tracestate given or set by the client's publish span, or null. */
  public String tracestate() {
    return tracestate;
  }

  /** The payload's bytes (a copy). */
  public byte[] payload() {
    return payload.clone();
  }

  /** The JSON body the publish route takes. */
  com.fasterxml.jackson.databind.node.ObjectNode toJson() {
    com.fasterxml.jackson.databind.node.ObjectNode node = Json.object();
    if (json) {
      node.set(PublishFields.PAYLOAD, Json.parse(new String(payload, StandardCharsets.UTF_8)));
    } else {
      node.put(PublishFields.PAYLOAD_BASE64, java.util.Base64.getEncoder().encodeToString(payload));
    }
    if (id != null) {
      node.put(PublishFields.ID, id);
    }
    if (priority != null) {
      node.put(PublishFields.PRIORITY, priority);
    }
    if (delay != null) {
      node.put(PublishFields.DELAY_MS, delay.toMillis());
    }
    if (runAt != null) {
      node.put(PublishFields.RUN_AT, runAt.toEpochMilli());
    }
    if (maxAttempts != null) {
      node.put(PublishFields.MAX_ATTEMPTS, maxAttempts);
    }
    if (timeToRun != null) {
      node.put(PublishFields.TTR_MS, timeToRun.toMillis());
    }
    if (ttl != null) {
      node.put(PublishFields.TTL_MS, ttl.toMillis());
    }
    if (uniqueKey != null) {
      node.put(PublishFields.UNIQUE_KEY, uniqueKey);
    }
    if (uniqueWindow != null) {
      node.put(PublishFields.UNIQUE_WINDOW_MS, uniqueWindow.toMillis());
    }
    if (startBy != null) {
      node.put(PublishFields.START_BY, startBy.toEpochMilli());
    }
    if (key != null) {
      node.put(PublishFields.KEY, key);
    }
    return node;
  }
}
