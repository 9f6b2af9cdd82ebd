package io.lineup.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;

/**
 * What a publish did.
 *
 * @param id the job's id (generated ids start with {@code ~})
 * @param created false when a caller-given id or unique key matched an existing job, which is the
 *     job described here
 * @param state the job's state, or null when the matched job's record is gone
 * @param dueAt when it is due (Redis server time), or null
 * @param position its place in the ready line (0 = next), or -1 when it is not ready
 */
public record PublishResult(
    String id, boolean created, JobState state, Instant dueAt, long position) {
  static PublishResult read(JsonNode node) {
    return new PublishResult(
        Json.text(node, "id"),
        node.path("created").asBoolean(),
        JobState.read(Json.text(node, "state")),
        Json.time(node, "due_at"),
        Json.longValue(node, "position", -1));
  }
}
