package io.lineup.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * An endpoint as the server holds it, with its breaker state and task counts.
 *
 * @param name its namespace and name
 * @param baseUrl the base URL tasks are sent under
 * @param methods the methods a task may use
 * @param rate most requests started per {@code period} (0: no limit)
 * @param period the rate's period
 * @param concurrency most requests in flight across all instances (0: no shared cap)
 * @param attemptTimeout longest time of one request
 * @param maxAttempts requests per task
 * @param lineTimeout longest wait in line before the first attempt
 * @param retention how long a finished task is kept
 * @param paused whether it sends nothing
 * @param breakerState {@code closed}, {@code open} or {@code half_open}
 * @param queued tasks waiting (in line, delayed or waiting for a retry)
 * @param running tasks with a request in flight
 * @param createdAt when it was first put
 * @param json the whole answer, for the settings not mirrored here
 */
public record Endpoint(
    EndpointName name,
    String baseUrl,
    List<String> methods,
    int rate,
    Duration period,
    int concurrency,
    Duration attemptTimeout,
    int maxAttempts,
    Duration lineTimeout,
    Duration retention,
    boolean paused,
    String breakerState,
    long queued,
    long running,
    Instant createdAt,
    JsonNode json) {

  static Endpoint read(JsonNode node) {
    JsonNode tasks = node.path("tasks");
    return new Endpoint(
        EndpointName.of(Json.text(node, "namespace"), Json.text(node, "endpoint")),
        Json.text(node, "base_url"),
        Json.texts(node, "methods"),
        Json.intValue(node, "rate", 0),
        Json.millis(node, "period_ms"),
        Json.intValue(node, "concurrency", 0),
        Json.millis(node, "attempt_timeout_ms"),
        Json.intValue(node, "max_attempts", 0),
        Json.millis(node, "line_timeout_ms"),
        Json.millis(node, "retention_ms"),
        node.path("paused").asBoolean(false),
        node.path("circuit_breaker_state").path("state").asText(null),
        tasks.path("queued").asLong(0),
        tasks.path("running").asLong(0),
        Json.time(node, "created_at"),
        node.deepCopy());
  }
}
