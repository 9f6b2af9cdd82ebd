package io.lineup.rooms;

import io.lineup.core.model.InvalidArgumentException;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * One waiting room's operations ({@link Rooms#room}): its settings, its tickets (join, poll, leave,
 * renew, follow), its signing keys and passes, and its priority grants. Every operation but {@link
 * #put} and {@link #info} throws {@link RoomNotFoundException} when the room does not exist; every
 * one may throw the engine's {@link io.lineup.core.model.RedisUnavailableException}.
 */
public final class Room {
  private final Rooms rooms;
  private final RoomKey key;

  Room(Rooms rooms, RoomKey key) {
    this.rooms = rooms;
    this.key = key;
  }

  /** The room's name. */
  public RoomKey key() {
    return key;
  }

  /**
   * Creates or replaces the room; its limits hold at once on every instance.
   *
   * @return true when created, false when replaced
   */
  public boolean put(RoomSpec spec) {
    return rooms.catalog().put(key, spec);
  }

  /**
   * Suspends the room (nobody is admitted; the line keeps its order, passes already given stay
   * valid) or lets it admit again, on every instance within a second, by changing its stored {@code
   * suspended} setting.
   *
   * @return the room after the change, as stored
   * @throws RoomNotFoundException when there is no such room
   */
  public RoomInfo setSuspended(boolean suspended) {
    RoomInfo before = info().orElseThrow(() -> new RoomNotFoundException(key));
    if (before.spec().suspended() != suspended) {
      put(before.spec().withSuspended(suspended));
    }
    return info().orElseThrow(() -> new RoomNotFoundException(key));
  }

  /**
   * A page of the tickets waiting in line, in admission order, each as {@link #ticket} reads it
   * (without counting as a poll); a ticket admitted or gone between the two reads is left out.
   *
   * @param afterScore where the previous page ended ({@link TicketPage#nextScore}), or null for the
   *     front of the line
   * @param count 1 to 1,000
   * @throws RoomNotFoundException when there is no such room
   */
  public TicketPage waiting(Double afterScore, int count) {
    spec();
    var entries = rooms.lineup().lineAfter(key.queue(), afterScore, count);
    java.util.List<Ticket> tickets = new java.util.ArrayList<>(entries.size());
    for (var entry : entries) {
      try {
        Ticket ticket = ticket(entry.getKey());
        if (ticket.status() == TicketStatus.WAITING) {
          tickets.add(ticket);
        }
      } catch (TicketNotFoundException gone) {
        // Left the line between the two reads.
      }
    }
    Double next = entries.size() == count ? entries.get(entries.size() - 1).getValue() : null;
    return new TicketPage(java.util.List.copyOf(tickets), next);
  }

  /** The room's settings and counts, or empty when there is no such room. */
  public Optional<RoomInfo> info() {
    return rooms.catalog().info(key);
  }

  /**
   * The room's settings (this instance's copy, read again every second).
   *
   * @throws RoomNotFoundException when there is no such room
   */
  public RoomSpec spec() {
    return rooms.settings().spec(key);
  }

  /**
   * Deletes the room everywhere: joins are refused (here at once, on every other instance from its
   * next read of the settings, within a second), every ticket ends with reason {@link
   * GoneReason#ROOM_DELETED}, its grants go, and its keys are deleted for good (its passes fail the
   * online check; its JWKS is gone). Passes already checked offline stay valid until they expire. A
   * room put again under the name is the next generation and starts empty.
   *
   * @return whether it existed
   */
  public boolean delete() {
    return rooms.catalog().delete(key);
  }

  /**
   * Joins the line. The priority is the caller's maximum (0 for the admin), or a lower one the
   * request names, or a grant's; a request never raises it above what the caller or grant allows.
   * The admin may name any priority from -255 to 255.
   *
   * @return the new ticket: waiting (maybe admitted at once) or, before the event start, pre-queue
   * @throws io.lineup.core.model.InvalidArgumentException for a priority outside -255 to 255
   * @throws PriorityNotAllowedException above the allowed priority
   * @throws GrantRefusedException for an unknown, used, expired or mismatched grant
   * @throws RoomFullException for a full room of method reject
   */
  public Ticket join(JoinRequest request) {
    return rooms.joins().join(key, rooms.settings().current(key), request);
  }

  /**
   * A ticket as it stands: waiting (position, ETA, when to poll), admitted (the pass) or gone. A
   * poll of a waiting ticket keeps its place for another grace period. A ticket of the room's
   * deleted predecessor reads gone with reason {@link GoneReason#ROOM_DELETED}, also while there is
   * no room of the name, for an hour after the delete.
   *
   * @throws MalformedIdException for a malformed id
   * @throws TicketNotFoundException for an unknown ticket
   * @throws RoomNotFoundException when there is no such room and the ticket is not one of a deleted
   *     room of this name
   */
  public Ticket poll(String ticket) {
    Rooms.checkTicketId(ticket);
    RoomSpec spec;
    try {
      spec = spec();
    } catch (RoomNotFoundException e) {
      return ofDeletedRoom(ticket, e);
    }
    return rooms.tickets().poll(key, spec, ticket);
  }

  /**
   * A ticket as it stands, without counting as a poll (its place is not kept by this); a ticket of
   * a deleted room as {@link #poll} reads it.
   *
   * @throws TicketNotFoundException for an unknown ticket
   * @throws RoomNotFoundException when there is no such room and the ticket is not one of a deleted
   *     room of this name
   */
  public Ticket ticket(String ticket) {
    RoomSpec spec;
    try {
      spec = spec();
    } catch (RoomNotFoundException e) {
      return ofDeletedRoom(ticket, e);
    }
    return rooms.reader().read(key, spec, ticket, System.currentTimeMillis());
  }

  /**
   * A ticket of a deleted room of this name (gone, reason {@link GoneReason#ROOM_DELETED}).
   *
   * @throws RoomNotFoundException {@code notFound} when it is not one
   */
  private Ticket ofDeletedRoom(String ticket, RoomNotFoundException notFound) {
    return rooms.deleted().read(key, ticket).orElseThrow(() -> notFound);
  }

  /**
   * Leaves the line, or gives back an admitted ticket's slot (its pass stops verifying online). A
   * ticket of a deleted room of this name was gone already.
   *
   * @throws MalformedIdException for a malformed id
   * @throws TicketNotFoundException for an unknown ticket
   * @throws RoomNotFoundException when there is no such room and the ticket is not one of a deleted
   *     room of this name
   */
  public Departure leave(String ticket) {
    Rooms.checkTicketId(ticket);
    RoomSpec spec;
    try {
      spec = spec();
    } catch (RoomNotFoundException e) {
      return new Departure(ticket, ofDeletedRoom(ticket, e).status());
    }
    return rooms.tickets().leave(key, spec, ticket);
  }

  /**
   * Renews an admitted ticket's pass for another pass lifetime, when the room allows it.
   *
   * @return the ticket with its new pass
   * @throws MalformedIdException for a malformed id
   * @throws NotRenewableException when the room does not allow it or the ticket is not admitted
   */
  public Ticket renew(String ticket) {
    return rooms.tickets().renew(key, spec(), ticket);
  }

  /**
   * Follows a ticket until it is admitted or gone, telling the sink each change ({@link
   * TicketFollower}).
   *
   * @param ticket the ticket id
   * @param first the ticket as it stood at the start, told at once
   * @param closing true once the caller shuts down (the following then ends)
   * @param sink where changes go
   * @throws IOException when the sink fails (its reader went away)
   * @throws InterruptedException when the following thread is interrupted
   */
  public void follow(String ticket, Ticket first, BooleanSupplier closing, TicketFollower.Sink sink)
      throws IOException, InterruptedException {
    new TicketFollower(key, rooms.watchers(), rooms.tickets()).follow(ticket, first, closing, sink);
  }

  /**
   * A long poll: polls the ticket (keeping its place), then, when it is waiting or in the
   * pre-queue, waits up to {@code waitMs} for its status or position to change (through any
   * instance) and answers the ticket as it changed, else as it stood. The wait reads nothing
   * itself: this instance's one watcher of the room tells it ({@link TicketFollower}); a position
   * change is told within {@value RoomWatcher#POSITION_EVERY_MS} ms, an admission or departure at
   * once.
   *
   * @param waitMs how long to wait for a change, 0 to {@value TicketFollower#MAX_WAIT_MS} ms
   * @throws InvalidArgumentException naming {@code wait_ms} when out of range
   * @throws MalformedIdException for a malformed id
   * @throws TicketNotFoundException for an unknown ticket
   * @throws InterruptedException when the waiting thread is interrupted
   */
  public Ticket poll(String ticket, long waitMs) throws InterruptedException {
    if (waitMs < 0 || waitMs > TicketFollower.MAX_WAIT_MS) {
      throw new InvalidArgumentException(
          "wait_ms", "must be an integer from 0 to " + TicketFollower.MAX_WAIT_MS);
    }
    Ticket first = poll(ticket);
    return new TicketFollower(key, rooms.watchers(), rooms.tickets())
        .awaitChange(ticket, first, waitMs);
  }

  /** How many followers (event streams, long polls) this room has on this instance. */
  public int followers() {
    return rooms.watchers().followers(key);
  }

  /**
   * Makes a new signing key current. The old one stays published until the passes it signed can
   * have expired (the pass lifetime plus {@link Rooms#KEY_OVERLAP_MS}), then is dropped.
   *
   * @return the room's current and published key ids after the rotation
   */
  public KeyRotation rotateKeys() {
    RoomRecord room = rooms.settings().current(key);
    return rooms.signingKeys().rotate(key, room.spec(), room.generation());
  }

  /** The room's public keys as a JWKS (JSON text), for checking passes offline. */
  public String jwks() {
    spec();
    return rooms.signingKeys().jwks(key);
  }

  /**
   * Revokes a pass: it no longer verifies online, and its slot is freed at once.
   *
   * @param passId the pass id ({@code jti})
   * @throws MalformedIdException for a malformed pass id
   * @throws PassNotFoundException when the room has no such pass
   */
  public void revoke(String passId) {
    spec();
    rooms.passCheck().revoke(key, passId).ifPresent(ticket -> rooms.tickets().release(key, ticket));
  }

  /**
   * Creates a single-use priority grant for the room.
   *
   * @throws PriorityNotAllowedException above the caller's maximum priority
   */
  public Grant createGrant(GrantRequest request) {
    return rooms.grants().create(key, rooms.settings().current(key).generation(), request);
  }

  /** The room's grants, newest first, each with the ticket and the token that used it (if any). */
  public List<GrantLogEntry> grants() {
    return rooms.grants().log(key, rooms.settings().current(key).generation());
  }
}
