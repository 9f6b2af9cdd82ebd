package io.lineup.api.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.nio.charset.StandardCharsets;

/**
 * A job held by a consumer until {@code leaseDeadlineAt} (an item of the lease route's {@code
 * jobs}, schema {@code LeasedJob}): ack, nack or extend it with {@code token} before then, or it is
 * delivered again. The payload is JSON under {@code payload} or base64 under {@code
 * payload_base64}; the other is absent.
 *
 * @param queue the queue it came from, {@code namespace/name}
 * @param id the job id
 * @param payload the payload when it is one JSON value, else null (absent)
 * @param payloadBase64 the payload's bytes in base64 when they are not JSON, else null (absent)
 * @param token the lease token; only the holder of the current lease can settle the job
 * @param attempt which delivery this is, from 1
 * @param maxAttempts deliveries allowed before dead letters
 * @param priority its priority
 * @param leaseDeadlineAt end of the lease, epoch milliseconds
 * @param createdAt when it was published, epoch milliseconds
 * @param dueAt when it became due, epoch milliseconds
 * @param traceparent the W3C traceparent stored with the job when it was published, else null
 *     (absent)
 * @param tracestate the W3C tracestate stored with it, else null (absent)
 */
@JsonPropertyOrder({
  "queue",
  "id",
  "payload",
  "payload_base64",
  "token",
  "attempt",
  "max_attempts",
  "priority",
  "lease_deadline_at",
  "created_at",
  "due_at",
  "traceparent",
  "tracestate"
})
public record LeasedJob(
    @JsonProperty("queue") String queue,
    @JsonProperty("id") String id,
    @JsonProperty("payload") @JsonInclude(JsonInclude.Include.NON_NULL) JsonText payload,
    @JsonProperty("payload_base64") @JsonInclude(JsonInclude.Include.NON_NULL) String payloadBase64,
    @JsonProperty("token") String token,
    @JsonProperty("attempt") int attempt,
    @JsonProperty("max_attempts") int maxAttempts,
    @JsonProperty("priority") int priority,
    @JsonProperty("lease_deadline_at") Long leaseDeadlineAt,
    @JsonProperty("created_at") Long createdAt,
    @JsonProperty("due_at") Long dueAt,
    @JsonProperty("traceparent") @JsonInclude(JsonInclude.Include.NON_NULL) String traceparent,
    @JsonProperty("tracestate") @JsonInclude(JsonInclude.Include.NON_NULL) String tracestate) {

  /**
   * The payload's bytes, from either form (empty when the answer had none).
   *
   * @throws IllegalArgumentException when {@code payloadBase64} is not base64
   */
  public byte[] payloadBytes() {
    byte[] bytes = JsonText.bytes(payload, payloadBase64);
    return bytes == null ? new byte[0] : bytes;
  }

  /** The payload as UTF-8 text. */
  public String payloadText() {
    return new String(payloadBytes(), StandardCharsets.UTF_8);
  }

  /** Whether this is the last attempt before dead letters. */
  public boolean lastAttempt() {
    return attempt >= maxAttempts;
  }
}
