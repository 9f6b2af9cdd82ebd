package io.lineup.api.resource;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * A dispatch task as it stands ({@code GET /v1/endpoints/{ns}/{endpoint}/tasks/{id}}, schema {@code
 * Task}). Every field is present, null when unknown. (The server's answer to a submit that matched
 * a task whose record is gone has only {@code id}, {@code endpoint}, {@code status}, {@code
 * position} and the ETA.)
 *
 * @param id its id
 * @param endpoint its endpoint's name within the namespace
 * @param status where it is in its life
 * @param priority its priority
 * @param position its place in the endpoint's line (0 = next), or -1 when not waiting in line
 * @param etaMs the expected wait until it is sent, in milliseconds, or null
 * @param etaLowMs the band's low end, in milliseconds; null with {@code etaMs}
 * @param etaHighMs the band's high end, in milliseconds; null with {@code etaMs}
 * @param createdAt when it was submitted, epoch milliseconds
 * @param dueAt when it is or was due, epoch milliseconds
 * @param startedAt when its last request was sent, epoch milliseconds, or null
 * @param finishedAt when it ended, epoch milliseconds, or null
 * @param attempts the requests sent (the latest 20)
 * @param maxAttempts requests allowed
 * @param response the endpoint's response once it ended, or null
 * @param error why it failed or timed out, or null
 * @param method the request's method
 * @param path the request's path and query
 * @param callbackUrl the URL called when it ends, or null
 * @param deliveryKey the {@code Idempotency-Key} its requests carry: a random UUID drawn at submit,
 *     shared by no other task
 */
@JsonPropertyOrder({
  "id",
  "endpoint",
  "status",
  "priority",
  "position",
  "eta_ms",
  "eta_low_ms",
  "eta_high_ms",
  "created_at",
  "due_at",
  "started_at",
  "finished_at",
  "attempts",
  "max_attempts",
  "response",
  "error",
  "method",
  "path",
  "callback_url",
  "delivery_key"
})
public record Task(
    @JsonProperty("id") String id,
    @JsonProperty("endpoint") String endpoint,
    @JsonProperty("status") TaskStatus status,
    @JsonProperty("priority") Integer priority,
    @JsonProperty("position") long position,
    @JsonProperty("eta_ms") Long etaMs,
    @JsonProperty("eta_low_ms") Long etaLowMs,
    @JsonProperty("eta_high_ms") Long etaHighMs,
    @JsonProperty("created_at") Long createdAt,
    @JsonProperty("due_at") Long dueAt,
    @JsonProperty("started_at") Long startedAt,
    @JsonProperty("finished_at") Long finishedAt,
    @JsonProperty("attempts") List<TaskAttempt> attempts,
    @JsonProperty("max_attempts") Integer maxAttempts,
    @JsonProperty("response") TaskResponse response,
    @JsonProperty("error") String error,
    @JsonProperty("method") String method,
    @JsonProperty("path") String path,
    @JsonProperty("callback_url") String callbackUrl,
    @JsonProperty("delivery_key") String deliveryKey) {}
