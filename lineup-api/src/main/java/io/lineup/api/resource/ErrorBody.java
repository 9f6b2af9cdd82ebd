package io.lineup.api.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Map;

/**
 * The body of every error answer (schema {@code Error}): {@code error} and {@code message} always,
 * the other fields only where the error has them.
 *
 * @param error the code, one of {@link io.lineup.api.ErrorCode}'s
 * @param message what went wrong, for people
 * @param field the request field at fault, or null (absent)
 * @param reason why a lease was lost or a pass refused, or null (absent)
 * @param retryAfterMs how long to wait before retrying, in milliseconds, or null (absent)
 * @param replicasRequested Redis replicas the publish asked for, or null (absent)
 * @param replicasAcknowledged Redis replicas that acknowledged the publish in time, or null
 *     (absent)
 * @param jobs the jobs a not-durable publish did store ({@code id}, {@code created}), or null
 *     (absent)
 * @param earliestStartAt {@code deadline_unreachable}: the earliest start the line could promise,
 *     epoch milliseconds, or null (absent)
 * @param expectedServiceMs {@code deadline_unreachable} of a task's {@code finish_by}: the request
 *     time counted after the start, in milliseconds, or null (absent)
 * @param index {@code deadline_unreachable} of a publish: the refused job's place in the body, or
 *     null (absent)
 * @param key {@code key_backlog_full}: the fairness key that is full, or null (absent)
 * @param maxWaiting {@code key_backlog_full}: the key's most jobs waiting, or null (absent)
 * @param waiting {@code key_backlog_full}: the key's jobs waiting when the publish ran, or null
 *     (absent)
 */
@JsonPropertyOrder({
  "error",
  "message",
  "field",
  "reason",
  "retry_after_ms",
  "replicas_requested",
  "replicas_acknowledged",
  "jobs",
  "earliest_start_at",
  "expected_service_ms",
  "index",
  "key",
  "max_waiting",
  "waiting"
})
public record ErrorBody(
    @JsonProperty("error") String error,
    @JsonProperty("message") String message,
    @JsonProperty("field") @JsonInclude(JsonInclude.Include.NON_NULL) String field,
    @JsonProperty("reason") @JsonInclude(JsonInclude.Include.NON_NULL) String reason,
    @JsonProperty("retry_after_ms") @JsonInclude(JsonInclude.Include.NON_NULL) Long retryAfterMs,
    @JsonProperty("replicas_requested") @JsonInclude(JsonInclude.Include.NON_NULL)
        Integer replicasRequested,
    @JsonProperty("replicas_acknowledged") @JsonInclude(JsonInclude.Include.NON_NULL)
        Integer replicasAcknowledged,
    @JsonProperty("jobs") @JsonInclude(JsonInclude.Include.NON_NULL) List<Map<String, Object>> jobs,
    @JsonProperty("earliest_start_at") @JsonInclude(JsonInclude.Include.NON_NULL)
        Long earliestStartAt,
    @JsonProperty("expected_service_ms") @JsonInclude(JsonInclude.Include.NON_NULL)
        Long expectedServiceMs,
    @JsonProperty("index") @JsonInclude(JsonInclude.Include.NON_NULL) Integer index,
    @JsonProperty("key") @JsonInclude(JsonInclude.Include.NON_NULL) String key,
    @JsonProperty("max_waiting") @JsonInclude(JsonInclude.Include.NON_NULL) Long maxWaiting,
    @JsonProperty("waiting") @JsonInclude(JsonInclude.Include.NON_NULL) Long waiting) {}
