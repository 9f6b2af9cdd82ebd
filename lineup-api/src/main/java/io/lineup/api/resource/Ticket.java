package io.lineup.api.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * A waiting-room ticket as it stands ({@code GET /v1/rooms/{ns}/{room}/tickets/{ticket}}). Which
 * fields are present depends on the status; the others are absent (null here). Null fields are left
 * out when written: the server's answer for a waiting ticket without an estimate has the ETA fields
 * as null, which these records cannot tell from absent.
 *
 * @param ticket the ticket id ({@code t} and 22 base64url characters)
 * @param room its room, {@code namespace/name}
 * @param priority its priority
 * @param joinedAt when it joined, epoch milliseconds
 * @param status where it is
 * @param position its place in line (0 = next) while waiting
 * @param etaMs the expected wait until admission while waiting, in milliseconds, or null
 * @param etaLowMs the band's low end, in milliseconds; null with {@code etaMs}
 * @param etaHighMs the band's high end, in milliseconds; null with {@code etaMs}
 * @param opensAt the room's event start before it, epoch milliseconds
 * @param pollAfterMs how long to wait before the next poll (a poll keeps the place), in
 *     milliseconds
 * @param graceMs how long the place is kept without a poll, in milliseconds
 * @param pass the signed pass (a compact JWT) once admitted
 * @param passId the pass's id ({@code jti}), for a revocation
 * @param admittedAt when it was admitted, epoch milliseconds
 * @param passExpiresAt when its pass expires, epoch milliseconds
 * @param renewable whether its pass can be renewed
 * @param reason why it is gone ({@code left}, {@code released}, {@code expired}, {@code abandoned})
 */
@JsonPropertyOrder({
  "ticket",
  "room",
  "priority",
  "joined_at",
  "status",
  "position",
  "eta_ms",
  "eta_low_ms",
  "eta_high_ms",
  "opens_at",
  "poll_after_ms",
  "grace_ms",
  "pass",
  "pass_id",
  "admitted_at",
  "pass_expires_at",
  "renewable",
  "reason"
})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Ticket(
    @JsonProperty("ticket") String ticket,
    @JsonProperty("room") String room,
    @JsonProperty("priority") Integer priority,
    @JsonProperty("joined_at") Long joinedAt,
    @JsonProperty("status") TicketStatus status,
    @JsonProperty("position") Long position,
    @JsonProperty("eta_ms") Long etaMs,
    @JsonProperty("eta_low_ms") Long etaLowMs,
    @JsonProperty("eta_high_ms") Long etaHighMs,
    @JsonProperty("opens_at") Long opensAt,
    @JsonProperty("poll_after_ms") Long pollAfterMs,
    @JsonProperty("grace_ms") Long graceMs,
    @JsonProperty("pass") String pass,
    @JsonProperty("pass_id") String passId,
    @JsonProperty("admitted_at") Long admittedAt,
    @JsonProperty("pass_expires_at") Long passExpiresAt,
    @JsonProperty("renewable") Boolean renewable,
    @JsonProperty("reason") String reason) {}
