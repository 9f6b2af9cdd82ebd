package io.lineup.api.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.nio.charset.StandardCharsets;

/**
 * A job as it stands ({@code GET /v1/queues/{ns}/{queue}/jobs/{id}}, schema {@code Job}). Every
 * field is present, null when unknown, except the payload and the result: each is either JSON under
 * its name or base64 under {@code <name>_base64}, and the other is absent. A job without a result
 * has {@code "result": null} ({@link JsonText#NULL}).
 *
 * @param queue its queue, {@code namespace/name}
 * @param id its id
 * @param state where it is in its life
 * @param priority its priority (higher first)
 * @param attempts deliveries so far
 * @param maxAttempts deliveries allowed before dead letters
 * @param ttrMs its lease length, in milliseconds
 * @param createdAt when it was published, epoch milliseconds, or null
 * @param dueAt when it is or was due, epoch milliseconds, or null
 * @param expiresAt when its time-to-live ends, epoch milliseconds, or null
 * @param startedAt when its last lease began, epoch milliseconds, or null
 * @param finishedAt when it finished, epoch milliseconds, or null
 * @param leaseDeadlineAt when the current lease ends, epoch milliseconds, or null when not leased
 * @param lastError the error text of its last nack, or null
 * @param key its fairness key, or null when it has none or its queue is not fair
 * @param position its place in the ready line (0 = next), or -1 when it is not ready
 * @param etaMs the expected wait until it is leased, in milliseconds, or null (not ready, paused,
 *     or no service rate yet)
 * @param etaLowMs the band's low end, in milliseconds; null with {@code etaMs}
 * @param etaHighMs the band's high end, in milliseconds; null with {@code etaMs}
 * @param payload the payload when it is one JSON value, else null (absent)
 * @param payloadBase64 the payload's bytes in base64 when they are not JSON, else null (absent)
 * @param result the ack's result when it is one JSON value, {@link JsonText#NULL} when there is
 *     none, or null (absent) when it is in {@code resultBase64}
 * @param resultBase64 the result's bytes in base64 when they are not JSON, else null (absent)
 * @param traceparent the W3C traceparent stored with the job when it was published, else null
 *     (absent)
 * @param tracestate the W3C tracestate stored with it, else null (absent)
 */
@JsonPropertyOrder({
  "queue",
  "id",
  "state",
  "priority",
  "attempts",
  "max_attempts",
  "ttr_ms",
  "created_at",
  "due_at",
  "expires_at",
  "started_at",
  "finished_at",
  "lease_deadline_at",
  "last_error",
  "key",
  "position",
  "eta_ms",
  "eta_low_ms",
  "eta_high_ms",
  "payload",
  "payload_base64",
  "result",
  "result_base64",
  "traceparent",
  "tracestate"
})
public record Job(
    @JsonProperty("queue") String queue,
    @JsonProperty("id") String id,
    @JsonProperty("state") JobState state,
    @JsonProperty("priority") int priority,
    @JsonProperty("attempts") int attempts,
    @JsonProperty("max_attempts") int maxAttempts,
    @JsonProperty("ttr_ms") Long ttrMs,
    @JsonProperty("created_at") Long createdAt,
    @JsonProperty("due_at") Long dueAt,
    @JsonProperty("expires_at") Long expiresAt,
    @JsonProperty("started_at") Long startedAt,
    @JsonProperty("finished_at") Long finishedAt,
    @JsonProperty("lease_deadline_at") Long leaseDeadlineAt,
    @JsonProperty("last_error") String lastError,
    @JsonProperty("key") String key,
    @JsonProperty("position") long position,
    @JsonProperty("eta_ms") Long etaMs,
    @JsonProperty("eta_low_ms") Long etaLowMs,
    @JsonProperty("eta_high_ms") Long etaHighMs,
    @JsonProperty("payload") @JsonInclude(JsonInclude.Include.NON_NULL) JsonText payload,
    @JsonProperty("payload_base64") @JsonInclude(JsonInclude.Include.NON_NULL) String payloadBase64,
    @JsonProperty("result") @JsonInclude(JsonInclude.Include.NON_NULL) JsonText result,
    @JsonProperty("result_base64") @JsonInclude(JsonInclude.Include.NON_NULL) String resultBase64,
    @JsonProperty("traceparent") @JsonInclude(JsonInclude.Include.NON_NULL) String traceparent,
    @JsonProperty("tracestate") @JsonInclude(JsonInclude.Include.NON_NULL) String tracestate) {

  /**
   * The payload's bytes, from either form.
   *
   * @throws IllegalArgumentException when {@code payloadBase64} is not base64
   */
  public byte[] payloadBytes() {
    return JsonText.bytes(payload, payloadBase64);
  }

  /** The payload as UTF-8 text, or null when there is none. */
  public String payloadText() {
    byte[] bytes = payloadBytes();
    return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
  }

  /** The result's bytes, from either form, or null when there is none. */
  public byte[] resultBytes() {
    return JsonText.bytes(result, resultBase64);
  }

  /** The result as UTF-8 text, or null when there is none. */
  public String resultText() {
    byte[] bytes = resultBytes();
    return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
  }
}
