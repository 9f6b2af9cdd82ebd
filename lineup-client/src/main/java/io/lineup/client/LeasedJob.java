package io.lineup.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * A job held by this consumer until {@link #leaseDeadline()}: ack, nack or extend it with {@link
 * #token()} before then, or it is delivered again. The same fields as the engine's {@code
 * LeasedJob}, so a handler written for the embedded engine reads the same here.
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
    Instant dueAt) {

  /** The payload as UTF-8 text. */
  public String payloadText() {
    return new String(payload, StandardCharsets.UTF_8);
  }

  /** Whether this is the last attempt before dead letters. */
  public boolean lastAttempt() {
    return attempt >= maxAttempts;
  }

  static LeasedJob read(JsonNode node) {
    byte[] payload = Json.bytes(node, "payload");
    return new LeasedJob(
        QueueName.parse(Json.text(node, "queue")),
        Json.text(node, "id"),
        payload == null ? new byte[0] : payload,
        Json.intValue(node, "priority", 0),
        Json.intValue(node, "attempt", 1),
        Json.intValue(node, "max_attempts", 1),
        Json.text(node, "token"),
        Json.time(node, "lease_deadline_at"),
        Json.time(node, "created_at"),
        Json.time(node, "due_at"));
  }
}
