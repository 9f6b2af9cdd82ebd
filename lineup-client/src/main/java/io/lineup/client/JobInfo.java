package io.lineup.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;

/**
 * A job as it stands. Times are Redis server time; absent values are null.
 *
 * @param queue its queue
 * @param id its id
 * @param state where it is in its life
 * @param priority its priority
 * @param attempts deliveries so far
 * @param maxAttempts deliveries allowed before dead letters
 * @param timeToRun its lease length
 * @param createdAt when it was published
 * @param dueAt when it is or was due
 * @param expiresAt when its time-to-live ends, or null
 * @param startedAt when its last lease began, or null
 * @param finishedAt when it finished, or null
 * @param leaseDeadline when the current lease ends, or null when not leased
 * @param lastError the error text of its last nack, or null
 * @param position its place in the ready line (0 = next), or -1 when it is not ready
 * @param eta the expected wait until it is leased, or null when the queue has no service rate yet
 * @param payload the bytes published
 * @param result the result given with its ack, or null
 */
public record JobInfo(
    QueueName queue,
    String id,
    JobState state,
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
    long position,
    Duration eta,
    byte[] payload,
    byte[] result) {

  /** The payload as UTF-8 text. */
  public String payloadText() {
    return payload == null ? null : new String(payload, StandardCharsets.UTF_8);
  }

  /** The result as UTF-8 text, or null when there is none. */
  public String resultText() {
    return result == null ? null : new String(result, StandardCharsets.UTF_8);
  }

  static JobInfo read(JsonNode node) {
    return new JobInfo(
        QueueName.parse(Json.text(node, "queue")),
        Json.text(node, "id"),
        JobState.read(Json.text(node, "state")),
        Json.intValue(node, "priority", 0),
        Json.intValue(node, "attempts", 0),
        Json.intValue(node, "max_attempts", 0),
        Json.millis(node, "ttr_ms"),
        Json.time(node, "created_at"),
        Json.time(node, "due_at"),
        Json.time(node, "expires_at"),
        Json.time(node, "started_at"),
        Json.time(node, "finished_at"),
        Json.time(node, "lease_deadline_at"),
        Json.text(node, "last_error"),
        Json.longValue(node, "position", -1),
        Json.millis(node, "eta_ms"),
        Json.bytes(node, "payload"),
        Json.bytes(node, "result"));
  }
}
