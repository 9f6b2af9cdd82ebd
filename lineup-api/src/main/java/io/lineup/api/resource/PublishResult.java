package io.lineup.api.resource;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * What a publish did (schema {@code Published}); every field is present.
 *
 * @param id the job's id (generated ids start with {@code ~})
 * @param created false when a caller-given id or unique key matched an existing job, which is the
 *     job described here
 * @param state the job's state, or null when the matched job's record is gone
 * @param dueAt when it is due, epoch milliseconds, or null
 * @param position its place in the ready line (0 = next), or -1 when it is not ready
 */
@JsonPropertyOrder({"id", "created", "state", "due_at", "position"})
public record PublishResult(
    @JsonProperty("id") String id,
    @JsonProperty("created") boolean created,
    @JsonProperty("state") JobState state,
    @JsonProperty("due_at") Long dueAt,
    @JsonProperty("position") long position) {}
