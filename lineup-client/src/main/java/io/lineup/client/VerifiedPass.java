package io.lineup.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;

/**
 * A pass the server's online check accepted: signed by the room, unexpired, not revoked, and its
 * ticket still holds its slot.
 *
 * @param room the room it admits to
 * @param ticket the ticket it was issued for
 * @param passId its id ({@code jti})
 * @param keyId the id of the key that signed it
 * @param issuedAt when it was issued (whole seconds)
 * @param expiresAt when it expires (whole seconds)
 */
public record VerifiedPass(
    RoomName room,
    String ticket,
    String passId,
    String keyId,
    Instant issuedAt,
    Instant expiresAt) {

  static VerifiedPass read(JsonNode node) {
    return new VerifiedPass(
        RoomName.parse(Json.text(node, "room")),
        Json.text(node, "ticket"),
        Json.text(node, "pass_id"),
        Json.text(node, "kid"),
        Json.time(node, "issued_at"),
        Json.time(node, "expires_at"));
  }
}
