package io.lineup.client;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.api.resource.Room;
import io.lineup.api.resource.Ticket;
import io.lineup.api.resource.TicketStatus;
import io.lineup.api.resource.VerifiedPass;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Waiting rooms ({@code /v1/rooms}): rooms, tickets with their position, ETA and pass, priority
 * grants, and the online check of a pass. Get it from {@link LineupClient#rooms()}.
 *
 * <pre>{@code
 * RoomsClient rooms = client.rooms();
 * RoomName checkout = RoomName.of("shop", "checkout");
 * Ticket ticket = rooms.join(checkout);
 * while (ticket.status() == TicketStatus.WAITING) {
 *   // a poll keeps the place; this one answers as soon as the ticket moves, or after 25 s
 *   ticket = rooms.ticket(checkout, ticket.id(), Duration.ofSeconds(25));
 * }
 * String pass = ticket.pass(); // null when the ticket is gone
 * }</pre>
 */
public final class RoomsClient {
  /** The longest long poll of a ticket the server takes ({@code wait_ms} 30,000). */
  public static final Duration MAX_TICKET_WAIT = Duration.ofSeconds(30);

  private final Transport transport;
  private final Duration requestTimeout;

  RoomsClient(Transport transport, Duration requestTimeout) {
    this.transport = transport;
    this.requestTimeout = requestTimeout;
  }

  private static String roomPath(RoomName room) {
    return "/v1/rooms/"
        + Transport.segment(room.namespace())
        + "/"
        + Transport.segment(room.name());
  }

  private static String ticketPath(RoomName room, String ticket) {
    return roomPath(room)
        + "/tickets/"
        + Transport.segment(Objects.requireNonNull(ticket, "ticket"));
  }

  // ---- rooms

  /**
   * Creates or replaces a room (scope {@code manage}); its limits hold at once on every instance.
   *
   * @return the room with its counts
   * @throws InvalidRequestException when a setting is out of range (the field names it)
   */
  public Room putRoom(RoomName room, RoomSettings settings) {
    return Json.read(transport.put(roomPath(room), settings.toJson()).body(), Room.class);
  }

  /**
   * A room's settings and counts (scope {@code manage}).
   *
   * @throws NotFoundException when there is no such room
   */
  public Room room(RoomName room) {
    return Json.read(transport.get(roomPath(room)).body(), Room.class);
  }

  /**
   * Deletes a room (scope {@code manage}): its waiting tickets are dropped and its passes no longer
   * verify online.
   *
   * @throws NotFoundException when there is no such room
   */
  public void deleteRoom(RoomName room) {
    transport.delete(roomPath(room));
  }

  /**
   * Suspends a room (scope {@code manage}): nobody is admitted until it is resumed; the line keeps
   * its order and passes already given stay valid.
   *
   * @return the room as stored afterwards ({@code suspended} true)
   * @throws NotFoundException when there is no such room
   */
  public Room suspend(RoomName room) {
    return Json.read(transport.post(roomPath(room) + "/suspend", null).body(), Room.class);
  }

  /**
   * Lets a suspended room admit again (scope {@code manage}).
   *
   * @return the room as stored afterwards ({@code suspended} false)
   * @throws NotFoundException when there is no such room
   */
  public Room resume(RoomName room) {
    return Json.read(transport.post(roomPath(room) + "/resume", null).body(), Room.class);
  }

  // ---- tickets

  /**
   * Joins the line (scope {@code publish}) at the token's maximum priority (0 for the admin token).
   *
   * @throws NotFoundException when there is no such room
   * @throws RoomFullException when a room of method reject is full
   */
  public Ticket join(RoomName room) {
    return joinWith(room, Json.object());
  }

  /**
   * Joins the line at a priority no higher than the token allows.
   *
   * @throws ForbiddenException {@code priority_not_allowed} when it is above the token's maximum
   * @see #join(RoomName)
   */
  public Ticket join(RoomName room, int priority) {
    ObjectNode body = Json.object();
    body.put("priority", priority);
    return joinWith(room, body);
  }

  /**
   * Joins the line with a single-use grant the business backend made ({@link #createGrant}): the
   * ticket gets the grant's priority.
   *
   * @param subject the subject the grant names, or null when it names none
   * @throws GrantRefusedException when the grant is unknown, used, expired, or for another room or
   *     subject
   */
  public Ticket joinWithGrant(RoomName room, String grant, String subject) {
    ObjectNode body = Json.object();
    body.put("grant", Objects.requireNonNull(grant, "grant"));
    if (subject != null) {
      body.put("subject", subject);
    }
    return joinWith(room, body);
  }

  private Ticket joinWith(RoomName room, ObjectNode body) {
    return Json.read(transport.post(roomPath(room) + "/tickets", body).body(), Ticket.class);
  }

  /**
   * Polls a ticket (scope {@code publish} or {@code manage}): its position and ETA, or once
   * admitted its pass. A poll keeps a waiting ticket's place for another grace period.
   *
   * @throws InvalidRequestException when the id is not a ticket id
   * @throws NotFoundException when the room has no such ticket
   */
  public Ticket ticket(RoomName room, String ticket) {
    return Json.read(transport.get(ticketPath(room, ticket)).body(), Ticket.class);
  }

  /**
   * Polls a ticket, then waits for it to change (a long poll): the answer comes as soon as the
   * ticket's status, position or ETA changes, or after {@code wait} with the ticket as it stood.
   * The poll keeps a waiting ticket's place, as {@link #ticket(RoomName, String)} does. One request
   * instead of one every {@code poll_after_ms}: the server's watcher of the room does the reading.
   *
   * @param wait 0 to {@link #MAX_TICKET_WAIT}; millisecond precision
   * @throws IllegalArgumentException when the wait is out of range
   * @throws InvalidRequestException when the id is not a ticket id
   * @throws NotFoundException when the room has no such ticket
   */
  public Ticket ticket(RoomName room, String ticket, Duration wait) {
    if (wait.isNegative() || wait.compareTo(MAX_TICKET_WAIT) > 0) {
      throw new IllegalArgumentException("a ticket's long poll waits 0 to 30 s; got " + wait);
    }
    return Json.read(
        transport
            .send(
                "GET",
                ticketPath(room, ticket) + "?wait_ms=" + wait.toMillis(),
                null,
                wait.plus(requestTimeout))
            .body(),
        Ticket.class);
  }

  /**
   * Leaves the line, or gives back an admitted ticket's slot (its pass stops verifying online).
   *
   * @return the status the ticket was in
   * @throws NotFoundException when the room has no such ticket
   */
  public TicketStatus leave(RoomName room, String ticket) {
    return Json.read(
        transport.delete(ticketPath(room, ticket)).body().path("previous_status"),
        TicketStatus.class);
  }

  /**
   * Renews an admitted ticket's pass for another pass lifetime (scope {@code publish}).
   *
   * @return the ticket with its new pass
   * @throws NotRenewableException when the room does not allow it or the ticket holds no pass
   */
  public Ticket renew(RoomName room, String ticket) {
    return Json.read(
        transport.post(ticketPath(room, ticket) + "/renew", Json.object()).body(), Ticket.class);
  }

  // ---- passes and keys

  /**
   * The room's public keys as a JWKS (no token needed), for {@code PassVerifier.fromJwks} of
   * lineup-pass.
   *
   * @throws NotFoundException when there is no such room
   */
  public String jwks(RoomName room) {
    return transport.getText(roomPath(room) + "/jwks.json");
  }

  /**
   * Checks a pass online (any token of the room's namespace): what an offline check checks, and
   * also that it was not revoked and its ticket still holds its slot.
   *
   * @throws PassRejectedException when it is refused ({@link PassRejectedException#reason()})
   * @throws InvalidRequestException when the text is not a pass at all
   */
  public VerifiedPass verifyPass(RoomName room, String pass) {
    ObjectNode body = Json.object();
    body.put("room", room.toString());
    body.put("pass", Objects.requireNonNull(pass, "pass"));
    return Json.read(transport.post("/v1/passes/verify", body).body(), VerifiedPass.class);
  }

  /**
   * Revokes a pass by its id (scope {@code manage}): its slot is freed at once and the online check
   * refuses it from then on; offline checks cannot know.
   *
   * @throws NotFoundException when the room has no such pass
   */
  public void revokePass(RoomName room, String passId) {
    transport.delete(roomPath(room) + "/passes/" + Transport.segment(passId));
  }

  /**
   * Makes a new signing key current (scope {@code manage}); the old one stays published until its
   * passes can have expired.
   *
   * @return the id of the new current key
   */
  public String rotateKeys(RoomName room) {
    return Json.text(
        transport.post(roomPath(room) + "/keys/rotate", Json.object()).body(), "current_kid");
  }

  // ---- grants

  /**
   * Creates a single-use priority grant (scope {@code manage}) for the business backend to hand to
   * one user.
   *
   * @param priority the ticket's priority, at most the token's maximum
   * @param subject the only subject that may use it, or null
   * @param note why (kept in the grant log), or null
   * @param ttl how long it can be used (1 s to 30 days), or null for the default 1 h
   * @throws ForbiddenException {@code priority_not_allowed} above the token's maximum priority
   */
  public Grant createGrant(RoomName room, int priority, String subject, String note, Duration ttl) {
    ObjectNode body = Json.object();
    body.put("priority", priority);
    if (subject != null) {
      body.put("subject", subject);
    }
    if (note != null) {
      body.put("note", note);
    }
    if (ttl != null) {
      body.put("ttl_ms", ttl.toMillis());
    }
    return Grant.read(transport.post(roomPath(room) + "/grants", body).body());
  }

  /** The room's grants, newest first, each with the ticket that used it (scope {@code manage}). */
  public List<Grant> grants(RoomName room) {
    List<Grant> list = new ArrayList<>();
    transport
        .get(roomPath(room) + "/grants")
        .body()
        .path("grants")
        .forEach(item -> list.add(Grant.read(item)));
    return List.copyOf(list);
  }
}
