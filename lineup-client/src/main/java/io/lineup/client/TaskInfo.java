package io.lineup.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A dispatch task as it stands. Absent values are null.
 *
 * @param endpoint its endpoint
 * @param id its id
 * @param status where it is in its life
 * @param priority its priority
 * @param position its place in the endpoint's line (0 = next), or -1 when not waiting in line
 * @param eta when it should be sent, or null (not in line, paused, nothing measured yet)
 * @param createdAt when it was submitted
 * @param dueAt when it is or was due
 * @param startedAt when its last request was sent, or null
 * @param finishedAt when it ended, or null
 * @param attempts the requests sent (the latest 20)
 * @param maxAttempts requests allowed
 * @param response the endpoint's response once it ended, or null
 * @param error why it failed or timed out, or null
 * @param method the request's method
 * @param path the request's path and query
 * @param callbackUrl the URL called when it ends, or null
 * @param deliveryKey the {@code Idempotency-Key} its requests carry: a random UUID drawn at submit,
 *     shared by no other task (callbacks name it in their {@code webhook-id}, {@code
 *     task_<deliveryKey>})
 */
public record TaskInfo(
    EndpointName endpoint,
    String id,
    TaskStatus status,
    int priority,
    long position,
    Eta eta,
    Instant createdAt,
    Instant dueAt,
    Instant startedAt,
    Instant finishedAt,
    List<TaskAttempt> attempts,
    int maxAttempts,
    TaskResponse response,
    String error,
    String method,
    String path,
    String callbackUrl,
    String deliveryKey) {

  static TaskInfo read(String namespace, JsonNode node) {
    List<TaskAttempt> attempts = new ArrayList<>();
    node.path("attempts").forEach(item -> attempts.add(TaskAttempt.read(item)));
    JsonNode response = node.get("response");
    return new TaskInfo(
        EndpointName.of(namespace, Json.text(node, "endpoint")),
        Json.text(node, "id"),
        TaskStatus.read(Json.text(node, "status")),
        Json.intValue(node, "priority", 0),
        Json.longValue(node, "position", -1),
        Eta.read(node),
        Json.time(node, "created_at"),
        Json.time(node, "due_at"),
        Json.time(node, "started_at"),
        Json.time(node, "finished_at"),
        List.copyOf(attempts),
        Json.intValue(node, "max_attempts", 0),
        response == null || response.isNull() ? null : TaskResponse.read(response),
        Json.text(node, "error"),
        Json.text(node, "method"),
        Json.text(node, "path"),
        Json.text(node, "callback_url"),
        Json.text(node, "delivery_key"));
  }
}
