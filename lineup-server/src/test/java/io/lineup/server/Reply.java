package io.lineup.server;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.server.http.Json;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

/** An HTTP answer as a test reads it: status, headers, body text and (when JSON) the body tree. */
record Reply(int status, HttpResponse<byte[]> raw, String text, JsonNode json) {
  static Reply of(HttpResponse<byte[]> response) {
    String text = new String(response.body(), StandardCharsets.UTF_8);
    JsonNode json = null;
    if (!text.isBlank()) {
      try {
        json = Json.parse(response.body());
      } catch (IOException notJson) {
        // Metrics are plain text.
      }
    }
    return new Reply(response.statusCode(), response, text, json);
  }

  /** A response header, or null. */
  String header(String name) {
    return raw.headers().firstValue(name).orElse(null);
  }

  /** A field of the JSON body, as text. */
  String field(String name) {
    JsonNode value = json == null ? null : json.get(name);
    return value == null || value.isNull() ? null : value.asText();
  }

  @Override
  public String toString() {
    return status + " " + text;
  }
}
