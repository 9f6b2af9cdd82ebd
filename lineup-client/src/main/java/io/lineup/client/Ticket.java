package io.lineup.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;

/**
 * A waiting-room ticket as it stands. What is known depends on the status; absent values are null
 * (or -1 for the position).
 *
 * @param id the ticket id ({@code t} and 22 base64url characters)
 * @param room its room
 * @param status where it is
 * @param priority its priority
 * @param position its place in line (0 = next) while waiting, else -1
 * @param eta the expected wait until admission while waiting, or null
 * @param pollAfter how long to wait before the next poll (a poll keeps the place), or null
 * @param grace how long the place is kept without a poll, or null
 * @param pass the signed pass (a compact JWT) once admitted, or null
 * @param passId the pass's id ({@code jti}), for a revocation, or null
 * @param admittedAt when it was admitted, or null
 * @param passExpiresAt when its pass expires, or null
 * @param reason why it is gone ({@code left}, {@code released}, {@code expired}, {@code
 *     abandoned}), or null
 */
public record Ticket(
    String id,
    RoomName room,
    TicketStatus status,
    int priority,
    long position,
    Eta eta,
    Duration pollAfter,
    Duration grace,
    String pass,
    String passId,
    Instant admittedAt,
    Instant passExpiresAt,
    String reason) {

  static Ticket read(JsonNode node) {
    return new Ticket(
        Json.text(node, "ticket"),
        RoomName.parse(Json.text(node, "room")),
        TicketStatus.read(Json.text(node, "status")),
        Json.intValue(node, "priority", 0),
        Json.longValue(node, "position", -1),
        Eta.read(node),
        Json.millis(node, "poll_after_ms"),
        Json.millis(node, "grace_ms"),
        Json.text(node, "pass"),
        Json.text(node, "pass_id"),
        Json.time(node, "admitted_at"),
        Json.time(node, "pass_expires_at"),
        Json.text(node, "reason"));
  }
}
