package io.lineup.dispatch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * One request of a task to its endpoint.
 *
 * @param number which attempt, from 1
 * @param startedAt when the request was sent, epoch milliseconds
 * @param durationMs how long it took until the response (or the error), in milliseconds
 * @param status the response status, or null when there was none
 * @param error what went wrong without a response ({@code timeout}, {@code connection_error: ...}),
 *     or null
 */
public record Attempt(int number, long startedAt, long durationMs, Integer status, String error) {

  /** Most attempts a task's record lists (the latest ones). */
  public static final int MAX_HISTORY = 20;

  /** Longest error text kept per attempt, in characters. */
  public static final int MAX_ERROR_LENGTH = 120;

  ObjectNode toJson() {
    ObjectNode node = DispatchJson.object();
    node.put("attempt", number);
    node.put("started_at", startedAt);
    node.put("duration_ms", durationMs);
    if (status == null) {
      node.putNull("status");
    } else {
      node.put("status", status);
    }
    node.put("error", error);
    return node;
  }

  static ArrayNode toJson(List<Attempt> attempts) {
    ArrayNode array = DispatchJson.MAPPER.createArrayNode();
    attempts.forEach(a -> array.add(a.toJson()));
    return array;
  }

  /** Reads the attempts of a record (an array; anything else reads as none). */
  static List<Attempt> fromJson(JsonNode array) {
    List<Attempt> attempts = new ArrayList<>();
    if (array == null || !array.isArray()) {
      return attempts;
    }
    for (JsonNode a : array) {
      attempts.add(
          new Attempt(
              a.path("attempt").asInt(),
              a.path("started_at").asLong(),
              a.path("duration_ms").asLong(),
              a.path("status").isIntegralNumber() ? a.get("status").asInt() : null,
              a.path("error").textValue()));
    }
    return attempts;
  }

  /**
   * The history carried from one attempt to the next in the engine's error text: {@code
   * {"attempts":[...]}}, the latest {@link #MAX_HISTORY} only.
   */
  static String history(List<Attempt> attempts) {
    List<Attempt> kept =
        attempts.size() > MAX_HISTORY
            ? attempts.subList(attempts.size() - MAX_HISTORY, attempts.size())
            : attempts;
    ObjectNode node = DispatchJson.object();
    node.set("attempts", toJson(kept));
    return new String(DispatchJson.write(node), java.nio.charset.StandardCharsets.UTF_8);
  }

  /** Reads a history written by {@link #history}; any other text reads as none. */
  static List<Attempt> parseHistory(String text) {
    if (text == null) {
      return new ArrayList<>();
    }
    int start = text.indexOf('{');
    if (start < 0) {
      return new ArrayList<>();
    }
    try {
      return fromJson(DispatchJson.MAPPER.readTree(text.substring(start)).get("attempts"));
    } catch (java.io.IOException e) {
      return new ArrayList<>();
    }
  }

  static String shorten(String error) {
    if (error == null) {
      return null;
    }
    return error.length() <= MAX_ERROR_LENGTH ? error : error.substring(0, MAX_ERROR_LENGTH);
  }
}
