package io.lineup.api.resource;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonView;

/**
 * A waiting-room ticket as it stands ({@code GET /v1/rooms/{ns}/{room}/tickets/{ticket}}). Which
 * fields are present depends on the status; the others are absent (null here). Written with the
 * JSON view of its status ({@link #fieldsOf}), a ticket has exactly the fields of its status, null
 * where the status has no value (a waiting ticket without an estimate has null ETA fields, a
 * pre-queue ticket a null position); {@code priority} and {@code joined_at} are left out when null.
 *
 * @param ticket the ticket id ({@code t} and 22 base64url characters)
 * @param room its room, {@code namespace/name}
 * @param priority its priority
 * @param joinedAt when it joined, epoch milliseconds
 * @param status where it is
 * @param position its place in line (0 = next) while waiting; 0 once admitted
 * @param etaMs the expected wait until admission while waiting, in milliseconds, or null; 0 once
 *     admitted
 * @param etaLowMs the band's low end, in milliseconds; null with {@code etaMs}
 * @param etaHighMs the band's high end, in milliseconds; null with {@code etaMs}
 * @param opensAt the room's event start before it, epoch milliseconds
 * @param pollAfterMs how long to wait before the next poll (a poll keeps the place), in
 *     milliseconds; also once admitted, as a waiting ticket at the front has it
 * @param graceMs how long the place is kept without a poll, in milliseconds (an admitted ticket
 *     whose pass nobody fetched within it is dropped)
 * @param pass the signed pass (a compact JWT) once admitted
 * @param passId the pass's id ({@code jti}), for a revocation
 * @param admittedAt when it was admitted, epoch milliseconds
 * @param passExpiresAt when its pass expires, epoch milliseconds
 * @param renewable whether its pass can be renewed
 * @param reason why it is gone ({@code left}, {@code released}, {@code expired}, {@code abandoned},
 *     {@code revoked})
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
public record Ticket(
    @JsonProperty("ticket") String ticket,
    @JsonProperty("room") String room,
    @JsonProperty("priority") @JsonInclude(JsonInclude.Include.NON_NULL) Integer priority,
    @JsonProperty("joined_at") @JsonInclude(JsonInclude.Include.NON_NULL) Long joinedAt,
    @JsonProperty("status") TicketStatus status,
    @JsonProperty("position") @JsonView({Waiting.class, PreQueue.class, Admitted.class})
        Long position,
    @JsonProperty("eta_ms") @JsonView({Waiting.class, Admitted.class}) Long etaMs,
    @JsonProperty("eta_low_ms") @JsonView({Waiting.class, Admitted.class}) Long etaLowMs,
    @JsonProperty("eta_high_ms") @JsonView({Waiting.class, Admitted.class}) Long etaHighMs,
    @JsonProperty("opens_at") @JsonView(PreQueue.class) Long opensAt,
    @JsonProperty("poll_after_ms") @JsonView({Waiting.class, PreQueue.class, Admitted.class})
        Long pollAfterMs,
    @JsonProperty("grace_ms") @JsonView({Waiting.class, PreQueue.class, Admitted.class})
        Long graceMs,
    @JsonProperty("pass") @JsonView(Admitted.class) String pass,
    @JsonProperty("pass_id") @JsonView(Admitted.class) String passId,
    @JsonProperty("admitted_at") @JsonView(Admitted.class) Long admittedAt,
    @JsonProperty("pass_expires_at") @JsonView(Admitted.class) Long passExpiresAt,
    @JsonProperty("renewable") @JsonView(Admitted.class) Boolean renewable,
    @JsonProperty("reason") @JsonView(Gone.class) String reason) {

  /** The JSON view of a waiting ticket's fields. */
  public interface Waiting {}

  /** The JSON view of a pre-queue ticket's fields. */
  public interface PreQueue {}

  /** The JSON view of an admitted ticket's fields. */
  public interface Admitted {}

  /** The JSON view of a gone ticket's fields. */
  public interface Gone {}

  /**
   * The JSON view that writes the fields of a status: give it to a writer ({@code
   * mapper.writerWithView(Ticket.fieldsOf(status))}) to write a ticket as the server answers it.
   */
  public static Class<?> fieldsOf(TicketStatus status) {
    return switch (status) {
      case WAITING -> Waiting.class;
      case PRE_QUEUE -> PreQueue.class;
      case ADMITTED -> Admitted.class;
      case GONE -> Gone.class;
    };
  }
}
