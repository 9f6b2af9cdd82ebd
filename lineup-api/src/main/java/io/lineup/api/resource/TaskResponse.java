package io.lineup.api.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The endpoint's response to a dispatch task's last request, as Lineup kept it ({@link
 * Task#response()}). The body is JSON under {@code body}, text under {@code body_text} or base64
 * under {@code body_base64}; the others are absent.
 *
 * @param status the HTTP status, or null when none is known
 * @param headers the response headers kept (at most 32), by lower-case name, or null
 * @param body the body when it is JSON, {@link JsonText#NULL} when there was none, or null (absent)
 * @param bodyText the body when it is text, else null (absent)
 * @param bodyBase64 the body's bytes in base64 when they are neither, else null (absent)
 * @param bodyTruncated whether the body was cut (Lineup keeps 256 KiB)
 */
@JsonPropertyOrder({"status", "headers", "body", "body_text", "body_base64", "body_truncated"})
public record TaskResponse(
    @JsonProperty("status") Integer status,
    @JsonProperty("headers") Map<String, String> headers,
    @JsonProperty("body") @JsonInclude(JsonInclude.Include.NON_NULL) JsonText body,
    @JsonProperty("body_text") @JsonInclude(JsonInclude.Include.NON_NULL) String bodyText,
    @JsonProperty("body_base64") @JsonInclude(JsonInclude.Include.NON_NULL) String bodyBase64,
    @JsonProperty("body_truncated") boolean bodyTruncated) {

  /**
   * The body's bytes, from any of its forms, or null when there was none.
   *
   * @throws IllegalArgumentException when {@code bodyBase64} is not base64
   */
  public byte[] bodyBytes() {
    if (bodyText != null) {
      return bodyText.getBytes(StandardCharsets.UTF_8);
    }
    return JsonText.bytes(body, bodyBase64);
  }
}
