package io.lineup.api.resource;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One request Lineup sent for a dispatch task (an item of {@link Task#attempts()}).
 *
 * @param attempt its number, from 1
 * @param startedAt when it was sent, epoch milliseconds
 * @param durationMs how long it took, in milliseconds, or null while it runs
 * @param status the endpoint's HTTP status, or null when none came (see {@code error})
 * @param error what went wrong without a status (a timeout, a refused connection), or null
 */
@JsonPropertyOrder({"attempt", "started_at", "duration_ms", "status", "error"})
public record TaskAttempt(
    @JsonProperty("attempt") int attempt,
    @JsonProperty("started_at") Long startedAt,
    @JsonProperty("duration_ms") Long durationMs,
    @JsonProperty("status") Integer status,
    @JsonProperty("error") String error) {}
