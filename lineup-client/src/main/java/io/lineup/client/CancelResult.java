package io.lineup.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.api.resource.JobState;

/**
 * What a cancel did.
 *
 * @param id the job's id
 * @param state {@link JobState#CANCELLED}
 * @param previousState the state it was cancelled in
 */
public record CancelResult(String id, JobState state, JobState previousState) {
  static CancelResult read(JsonNode node) {
    return new CancelResult(
        Json.text(node, "id"),
        Json.state(Json.text(node, "state")),
        Json.state(Json.text(node, "previous_state")));
  }
}
