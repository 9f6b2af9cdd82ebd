package io.lineup.core.model;

import io.lineup.api.TraceContext;
import java.time.Duration;
import java.time.Instant;

/**
 * One job as it stands. Timestamps are Redis server time; absent ones are null.
 *
 * @param queue its queue
 * @param id its id
 * @param state its state
 * @param payload the bytes published (empty for cancelled and expired tombstones)
 * @param priority its priority
 * @param attempts deliveries so far
 * @param maxAttempts deliveries allowed
 * @param timeToRun its lease length
 * @param createdAt when published
 * @param dueAt when due
 * @param expiresAt when its TTL ends
 * @param startedAt when the latest lease began
 * @param finishedAt when it was acked, cancelled, expired or died
 * @param leaseDeadline end of the current lease (LEASED only)
 * @param lastError error text of the latest failure
 * @param result bytes stored by the ack (null when none)
 * @param position place in the ready line (0 = next), -1 when not ready
 * @param eta estimated wait until leased, with its band ({@link EtaEstimator}: from the position,
 *     the completions of the last minute and the queue's limits); null when the job is not ready,
 *     the queue is paused, or it served nothing in the last minute and has no expected service
 *     time; in a fair queue never sooner than the job's key's own rate limit lets the key's jobs
 *     ahead of it go
 * @param key its fairness key ({@link NewJob#key}), or null when it has none or its queue is not
 *     fair
 * @param trace the W3C trace context stored with it when it was published, or null
 */
public record JobInfo(
    QueueName queue,
    String id,
    JobState state,
    byte[] payload,
    int priority,
    int attempts,
    int maxAttempts,
    Duration timeToRun,
    Instant createdAt,
    Instant dueAt,
    Instant expiresAt,
    Instant startedAt,
    Instant finishedAt,
    Instant leaseDeadline,
    String lastError,
    byte[] result,
    long position,
    Eta eta,
    String key,
    TraceContext trace) {

  /** A job without a trace context. */
  public JobInfo(
      QueueName queue,
      String id,
      JobState state,
      byte[] payload,
      int priority,
      int attempts,
      int maxAttempts,
      Duration timeToRun,
      Instant createdAt,
      Instant dueAt,
      Instant expiresAt,
      Instant startedAt,
      Instant finishedAt,
      Instant leaseDeadline,
      String lastError,
      byte[] result,
      long position,
      Eta eta,
      String key) {
    this(
        queue,
        id,
        state,
        payload,
        priority,
        attempts,
        maxAttempts,
        timeToRun,
        createdAt,
        dueAt,
        expiresAt,
        startedAt,
        finishedAt,
        leaseDeadline,
        lastError,
        result,
        position,
        eta,
        key,
        null);
  }
}
