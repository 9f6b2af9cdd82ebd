package io.lineup.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * A namespace token as the admin routes describe it.
 *
 * @param id 16 hexadecimal digits that name it in lists and revocations
 * @param token the token text ({@code lu_<id>.<secret>}): only in the answer to its creation, null
 *     in lists
 * @param namespace the namespace it acts in
 * @param scopes {@code publish}, {@code consume}, {@code manage}, {@code read}
 * @param maxPriority the highest priority it may publish with
 * @param name its label, or null
 * @param createdAt when it was issued
 */
public record TokenInfo(
    String id,
    String token,
    String namespace,
    List<String> scopes,
    int maxPriority,
    String name,
    Instant createdAt) {
  static TokenInfo read(JsonNode node) {
    return new TokenInfo(
        Json.text(node, "id"),
        Json.text(node, "token"),
        Json.text(node, "namespace"),
        Json.texts(node, "scopes"),
        Json.intValue(node, "max_priority", 0),
        Json.text(node, "name"),
        Json.time(node, "created_at"));
  }
}
