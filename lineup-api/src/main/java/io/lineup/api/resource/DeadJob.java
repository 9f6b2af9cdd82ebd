package io.lineup.api.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.nio.charset.StandardCharsets;

/**
 * A job in dead letters (an item of {@link DeadPage#jobs()}). The payload is JSON under {@code
 * payload} or base64 under {@code payload_base64}; the other is absent.
 *
 * @param id its id
 * @param priority its priority
 * @param attempts deliveries it had
 * @param lastError the error text of its last nack, or null
 * @param diedAt when it went to dead letters, epoch milliseconds
 * @param payload the payload when it is one JSON value, else null (absent)
 * @param payloadBase64 the payload's bytes in base64 when they are not JSON, else null (absent)
 */
@JsonPropertyOrder({
  "id",
  "priority",
  "attempts",
  "last_error",
  "died_at",
  "payload",
  "payload_base64"
})
public record DeadJob(
    @JsonProperty("id") String id,
    @JsonProperty("priority") int priority,
    @JsonProperty("attempts") int attempts,
    @JsonProperty("last_error") String lastError,
    @JsonProperty("died_at") Long diedAt,
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
