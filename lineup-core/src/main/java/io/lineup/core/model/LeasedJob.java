package io.lineup.core.model;

import io.lineup.api.TraceContext;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * A job held by a consumer until {@link #leaseDeadline()}: ack, nack or extend it with {@link
 * #token()} before then, or it is delivered again.
 *
 * @param queue the queue it came from
 * @param id the job id
 * @param payload the bytes published
 * @param priority its priority
 * @param attempt which delivery this is, from 1
 * @param maxAttempts deliveries allowed before dead letters
 * @param token the lease token; only the holder of the current lease can settle the job
 * @param leaseDeadline end of the lease, Redis server time
 * @param createdAt when it was published, Redis server time
 * @param dueAt when it became due, Redis server time
 * @param leasedAt when this lease began, Redis server time
 * @param trace the W3C trace context stored with the job when it was published, or null
 */
public record LeasedJob(
    QueueName queue,
    String id,
    byte[] payload,
    int priority,
    int attempt,
    int maxAttempts,
    String token,
    Instant leaseDeadline,
    Instant createdAt,
    Instant dueAt,
    Instant leasedAt,
    TraceContext trace) {

  /** A leased job without a trace context. */
  public LeasedJob(
      QueueName queue,
      String id,
      byte[] payload,
      int priority,
      int attempt,
      int maxAttempts,
      String token,
      Instant leaseDeadline,
      Instant createdAt,
      Instant dueAt,
      Instant leasedAt) {
    this(
        queue,
        id,
        payload,
        priority,
        attempt,
        maxAttempts,
        token,
        leaseDeadline,
        createdAt,
        dueAt,
        leasedAt,
        null);
  }

  /** The payload as UTF-8 text. */
  public String payloadText() {
    return new String(payload, StandardCharsets.UTF_8);
  }

  /** Whether this is the last attempt before dead letters. */
  public boolean lastAttempt() {
    return attempt >= maxAttempts;
  }
}
