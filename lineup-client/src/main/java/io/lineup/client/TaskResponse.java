package io.lineup.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The endpoint's response to a task's last request, as Lineup kept it.
 *
 * @param status the HTTP status, or 0 when none is known
 * @param headers the response headers kept (at most 32), by name
 * @param body the body's bytes (JSON in its compact form), or null when there was none
 * @param bodyTruncated whether the body was cut (Lineup keeps 256 KiB)
 */
public record TaskResponse(
    int status, Map<String, String> headers, byte[] body, boolean bodyTruncated) {

  /** The body as UTF-8 text, or null when there is none. */
  public String bodyText() {
    return body == null ? null : new String(body, StandardCharsets.UTF_8);
  }

  static TaskResponse read(JsonNode node) {
    Map<String, String> headers = new LinkedHashMap<>();
    node.path("headers").properties().forEach(e -> headers.put(e.getKey(), e.getValue().asText()));
    byte[] body = Json.bytes(node, "body");
    if (body == null && node.hasNonNull("body_text")) {
      body = node.get("body_text").asText().getBytes(StandardCharsets.UTF_8);
    }
    return new TaskResponse(
        Json.intValue(node, "status", 0),
        Map.copyOf(headers),
        body,
        node.path("body_truncated").asBoolean(false));
  }
}
