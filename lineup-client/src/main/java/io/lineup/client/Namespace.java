package io.lineup.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;

/**
 * A registered namespace.
 *
 * @param name its name
 * @param createdAt when it was registered
 */
public record Namespace(String name, Instant createdAt) {
  static Namespace read(JsonNode node) {
    return new Namespace(Json.text(node, "name"), Json.time(node, "created_at"));
  }
}
