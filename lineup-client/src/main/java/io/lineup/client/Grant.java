package io.lineup.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;

/**
 * A single-use priority grant of a waiting room, as created or as the grant log lists it.
 *
 * @param id the grant id ({@code g} and 22 base64url characters), to hand to the user
 * @param room its room
 * @param priority the priority a ticket joining with it gets
 * @param subject the only subject that may use it, or null for anyone holding it
 * @param note why it was made, or null
 * @param createdAt when it was made
 * @param expiresAt when it stops being usable
 * @param createdBy the id of the token that made it
 * @param usedByTicket the ticket that used it, or null while unused
 * @param usedAt when it was used, or null
 * @param usedByToken the public id of the token that joined with it (never its secret), or null
 *     while unused
 */
public record Grant(
    String id,
    RoomName room,
    int priority,
    String subject,
    String note,
    Instant createdAt,
    Instant expiresAt,
    String createdBy,
    String usedByTicket,
    Instant usedAt,
    String usedByToken) {

  static Grant read(JsonNode node) {
    return new Grant(
        Json.text(node, "grant"),
        RoomName.parse(Json.text(node, "room")),
        Json.intValue(node, "priority", 0),
        Json.text(node, "subject"),
        Json.text(node, "note"),
        Json.time(node, "created_at"),
        Json.time(node, "expires_at"),
        Json.text(node, "created_by"),
        Json.text(node, "used_by_ticket"),
        Json.time(node, "used_at"),
        Json.text(node, "used_by_token"));
  }
}
