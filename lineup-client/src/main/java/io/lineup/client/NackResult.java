package io.lineup.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.api.resource.JobState;
import java.time.Instant;

/**
 * Where a nacked job went.
 *
 * @param state {@link JobState#DELAYED} (or READY) for a retry, {@link JobState#DEAD} when it was
 *     out of attempts
 * @param dueAt when the retry is due (Redis server time), or null for a dead job
 */
public record NackResult(JobState state, Instant dueAt) {
  static NackResult read(JsonNode node) {
    return new NackResult(Json.state(Json.text(node, "state")), Json.time(node, "due_at"));
  }
}
