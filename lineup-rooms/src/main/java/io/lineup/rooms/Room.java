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
   * Deletes the room: nobody joins or is admitted any more, its waiting tickets are dropped, its
   * keys are deleted (so its passes no longer verify). Passes already checked offline stay valid
   * until they expire.
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
    return rooms.joins().join(key, spec(), request);
  }

  /**
   * A ticket as it stands: waiting (position, ETA, when to poll), admitted (the pass) or gone. A
   * poll of a waiting ticket keeps its place for another grace period.
   *
   * @throws MalformedIdException for a malformed id
   * @throws TicketNotFoundException for an unknown ticket
   */
  public Ticket poll(String ticket) {
    return rooms.tickets().poll(key, spec(), ticket);
  }

  /**
   * A ticket as it stands, without counting as a poll (its place is not kept by this).
   *
   * @throws TicketNotFoundException for an unknown ticket
   */
  public Ticket ticket(String ticket) {
    return rooms.reader().read(key, spec(), ticket, System.currentTimeMillis());
  }

  /**
   * Leaves the line, or gives back an admitted ticket's slot (its pass stops verifying online).
   *
   * @throws MalformedIdException for a malformed id
   * @throws TicketNotFoundException for an unknown ticket
   */
  public Departure leave(String ticket) {
    return rooms.tickets().leave(key, spec(), ticket);
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
    return rooms.signingKeys().rotate(key, spec());
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
    spec();
    return rooms.grants().create(key, request);
  }

  /** The room's grants, newest first, each with the ticket and the token that used it (if any). */
  public List<GrantLogEntry> grants() {
    spec();
    return rooms.grants().log(key);
  }
}
