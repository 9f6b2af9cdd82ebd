package io.lineup.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;

/**
 * One request Lineup sent for a task.
 *
 * @param attempt its number, from 1
 * @param startedAt when it was sent
 * @param duration how long it took, or null while it runs
 * @param status the endpoint's HTTP status, or 0 when none came (see {@code error})
 * @param error what went wrong without a status (a timeout, a refused connection), or null
 */
public record TaskAttempt(
    int attempt, Instant startedAt, Duration duration, int status, String error) {
  static TaskAttempt read(JsonNode node) {
    return new TaskAttempt(
        Json.intValue(node, "attempt", 0),
        Json.time(node, "started_at"),
        Json.millis(node, "duration_ms"),
        Json.intValue(node, "status", 0),
        Json.text(node, "error"));
  }
}
