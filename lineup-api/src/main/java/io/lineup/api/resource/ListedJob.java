package io.lineup.api.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.nio.charset.StandardCharsets;

/**
 * A job in a list by state (an item of {@link JobListPage#jobs()}). The payload is JSON under
 * {@code payload} or base64 under {@code payload_base64}; the other is absent.
 *
 * @param id its id
 * @param state its state
 * @param priority its priority
 * @param attempts deliveries so far
 * @param createdAt when it was published, epoch milliseconds
 * @param at the time the list is sorted by, epoch milliseconds: due time (delayed), lease deadline
 *     (leased), death (dead) or finish (finished); null for ready jobs
 * @param position its place in the ready line (0 = next) for ready jobs, else -1
 * @param lastError the error text of its last failure, or null
 * @param payload the payload when it is one JSON value, else null (absent)
 * @param payloadBase64 the payload's bytes in base64 when they are not JSON, else null (absent)
 */
@JsonPropertyOrder({
  "id",
  "state",
  "priority",
  "attempts",
  "created_at",
  "at",
  "position",
  "last_error",
  "payload",
  "payload_base64"
})
public record ListedJob(
    @JsonProperty("id") String id,
    @JsonProperty("state") JobState state,
    @JsonProperty("priority") int priority,
    @JsonProperty("attempts") int attempts,
    @JsonProperty("created_at") Long createdAt,
    @JsonProperty("at") Long at,
    @JsonProperty("position") long position,
    @JsonProperty("last_error") String lastError,
    @JsonProperty("payload") @JsonInclude(JsonInclude.Include.NON_NULL) JsonText payload,
    @JsonProperty("payload_base64") @JsonInclude(JsonInclude.Include.NON_NULL)
        String payloadBase64) {

  /**
   * The payload's bytes, from either form, or null when there is none.
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
}
