package io.lineup.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * A job in dead letters.
 *
 * @param id its id
 * @param priority its priority
 * @param attempts deliveries it had
 * @param lastError the error text of its last nack, or null
 * @param diedAt when it went to dead letters, Redis server time
 * @param payload the bytes published
 */
public record DeadJob(
    String id, int priority, int attempts, String lastError, Instant diedAt, byte[] payload) {

  /** The payload as UTF-8 text. */
  public String payloadText() {
    return payload == null ? null : new String(payload, StandardCharsets.UTF_8);
  }

  static DeadJob read(JsonNode node) {
    return new DeadJob(
        Json.text(node, "id"),
        Json.intValue(node, "priority", 0),
        Json.intValue(node, "attempts", 0),
        Json.text(node, "last_error"),
        Json.time(node, "died_at"),
        Json.bytes(node, "payload"));
  }
}
