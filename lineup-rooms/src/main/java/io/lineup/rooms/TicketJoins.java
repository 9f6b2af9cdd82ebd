package io.lineup.rooms;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.core.Lineup;
import io.lineup.core.RecordStore;
import io.lineup.core.model.FenceMismatchException;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.Limits;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.PublishResult;
import io.lineup.core.model.QueueStats;
import io.lineup.core.model.RedisUnavailableException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Joins of a room's line: the priority (the caller's, a lower one asked for, or a grant's), the
 * ticket's poll record and its place in line (or in the pre-queue before the event start), and its
 * first answer.
 */
final class TicketJoins {
  /**
   * The fence a deleted room's queue holds: no generation is 0 (the first is 1), so every join
   * bound to a generation is refused.
   */
  static final long DELETED_FENCE = 0;

  private final Lineup lineup;
  private final RecordStore polls;
  private final RoomIds ids;
  private final RoomGrants grants;
  private final PreQueue preQueue;
  private final AdmissionTicker admissions;
  private final TicketReader reader;
  private final TicketPolls tickets;
  private final RoomSettingsStore settings;
  private final DeletedRoomTickets deleted;
  private final BoundLine line;

  TicketJoins(
      Lineup lineup,
      RecordStore polls,
      RoomIds ids,
      RoomGrants grants,
      PreQueue preQueue,
      AdmissionTicker admissions,
      TicketReader reader,
      TicketPolls tickets,
      RoomSettingsStore settings,
      DeletedRoomTickets deleted) {
    this.lineup = lineup;
    this.polls = polls;
    this.ids = ids;
    this.grants = grants;
    this.preQueue = preQueue;
    this.admissions = admissions;
    this.reader = reader;
    this.tickets = tickets;
    this.settings = settings;
    this.deleted = deleted;
    this.line = new BoundLine(lineup, settings);
  }

  /**
   * Joins the line. The priority is the caller's maximum (0 for the admin), or a lower one the
   * request names, or a grant's; a request never raises it above what the caller or grant allows.
   * The admin may name any priority from -255 to 255.
   *
   * <p>The join is bound to the room's generation as this instance knows it: the ticket's publish
   * expects the room's queue to hold that generation as its fence ({@link Lineup#publishFenced}),
   * which the room's creation sets and its deletion replaces (with {@link #DELETED_FENCE}) before
   * it ends the tickets in line. The fence is checked in the publish's own script call, so the
   * ticket either is in line before the deletion's fence (then the deletion ends it) or is never
   * written. Refused, this instance reads the room's record again: gone, the join is refused;
   * replaced by a later generation, the settings are read again and the new room joined once.
   *
   * @param room the room's record as this instance knows it (settings and generation)
   * @throws RoomNotFoundException when the room was deleted
   * @throws InvalidArgumentException for a priority outside -255 to 255
   * @throws PriorityNotAllowedException above the allowed priority
   * @throws GrantRefusedException for an unknown, used, expired or mismatched grant
   * @throws RoomFullException for a full room of method reject
   */
  Ticket join(RoomKey key, RoomRecord room, JoinRequest request) {
    return join(key, room, request, true);
  }

  private Ticket join(RoomKey key, RoomRecord room, JoinRequest request, boolean mayRetry) {
    RoomSpec spec = room.spec();
    Caller caller = request.caller();
    String grantId = request.grant();
    Integer asked = request.priority();
    if (asked != null && (asked < Limits.MIN_PRIORITY || asked > Limits.MAX_PRIORITY)) {
      throw new InvalidArgumentException(
          "priority", "must be between " + Limits.MIN_PRIORITY + " and " + Limits.MAX_PRIORITY);
    }
    // The admin may ask for any priority of the range, and joins at 0 when it asks for none.
    int allowed =
        caller.admin()
            ? Limits.MAX_PRIORITY
            : Math.max(Limits.MIN_PRIORITY, Math.min(Limits.MAX_PRIORITY, caller.maxPriority()));
    int byDefault = caller.admin() ? 0 : allowed;
    Grant grant = null;
    if (grantId != null) {
      grant = grants.check(key, room.generation(), grantId, request.subject());
      byDefault = grant.priority();
      allowed = caller.admin() ? allowed : grant.priority();
    }
    if (asked != null && asked > allowed) {
      throw new PriorityNotAllowedException(asked, allowed, grant != null ? "grant" : "token");
    }
    int priority = asked != null ? asked : byDefault;
    long now = System.currentTimeMillis();
    if (spec.method() == RoomSpec.Method.REJECT) {
      QueueStats stats = lineup.stats(key.queue());
      if (stats.ready() > 0 || stats.leased() >= spec.maxActive()) {
        throw new RoomFullException(stats.leased());
      }
    }
    String ticket = ids.newId('t');
    if (grant != null && !grants.use(grantId, ticket, now, caller.id())) {
      throw new GrantRefusedException("grant", "the grant was used already");
    }
    String payload = joinPayload(now, priority, grantId);
    // A ticket in line has its poll record by the time anyone knows its id (the join's answer);
    // handing out its pass deletes it (so the sweep never drops an admitted ticket's place for
    // want of polls).
    PollRecord record = new PollRecord(key.toString(), now, now, priority);
    if (spec.eventStartAt() > now) {
      polls.put(ticket, record.text());
      // Before the event: held beside the line, put into it (shuffled for random) at the start.
      preQueue.of(key).put(ticket, payload);
      Ticket retried = endIfStale(key, room, ticket, settings.stored(key), request, mayRetry);
      return retried != null ? retried : reader.read(key, spec, ticket, now);
    }
    // The record is sent (maybe with other joins' records) beside the publish, and both are
    // awaited together: one wait instead of two. The join answers only once both are stored, so
    // nobody can poll or be handed the ticket's pass before its record exists.
    long quiet = admissions.quietMark(key);
    CompletableFuture<Void> recorded = polls.putAsync(ticket, record.text());
    // Should the publish fail, the record left behind is dropped by the sweep after the grace.
    PublishResult published;
    try {
      published =
          line.publish(
              key, room.generation(), NewJob.ofText(payload).id(ticket).priority(priority));
    } catch (FenceMismatchException refused) {
      forgetRecord(ticket, recorded);
      return afterRefusedFence(key, room, request, mayRetry);
    }
    try {
      awaitStored(recorded);
    } catch (RuntimeException e) {
      // In line without its record, the ticket would hold a place the sweep never drops.
      tickets.cancelQuietly(key, ticket);
      throw e;
    }
    admissions.admitIfOpen(key, spec, now);
    if (published.position() >= 0 && admissions.noneSince(key, quiet)) {
      // No admission of this instance ran since before the publish, which placed the ticket at
      // this position: the answer needs no second read. (One on another instance in the meantime
      // shows at the next poll, as one just after a read would.)
      return reader.waitingAt(key, spec, ticket, record, published.position(), now);
    }
    // Read after the admission (this instance's or another's ticker's may have taken the ticket).
    return reader.read(key, spec, ticket, record, now);
  }

  /**
   * A join whose publish the room's queue refused: the room was deleted, or replaced by a later
   * generation, since this instance read its record. The record is read again from Redis; the new
   * generation is joined once (when there is one and {@code mayRetry}).
   *
   * @throws RoomNotFoundException when the room was deleted
   */
  private Ticket afterRefusedFence(
      RoomKey key, RoomRecord joined, JoinRequest request, boolean mayRetry) {
    Optional<RoomRecord> current = settings.stored(key);
    // This instance's copy of the settings is stale: read it again now rather than at its sync.
    settings.refresh();
    if (current.isPresent() && current.get().generation() != joined.generation() && mayRetry) {
      return join(key, current.get(), request, false);
    }
    throw new RoomNotFoundException(key);
  }

  /**
   * Deletes the poll record of a ticket that was never written (its id was never handed out), once
   * its write ended. A failure leaves it to the sweep, which drops it after the grace.
   */
  private void forgetRecord(String ticket, CompletableFuture<Void> recorded) {
    try {
      awaitStored(recorded);
      polls.delete(ticket);
    } catch (RuntimeException e) {
      // The sweep drops a record without a ticket after the grace: nothing more to do here.
    }
  }

  /**
   * Ends a ticket just held in the pre-queue when the room's record read after that is gone or of
   * another generation than the one joined; then joins the new generation once (when there is one
   * and {@code mayRetry}). (A ticket put in line needs no such read: its publish checks the room's
   * fence.)
   *
   * @return the ticket of the new generation's join, or null when the join stands
   * @throws RoomNotFoundException when the room was deleted
   */
  private Ticket endIfStale(
      RoomKey key,
      RoomRecord joined,
      String ticket,
      Optional<RoomRecord> current,
      JoinRequest request,
      boolean mayRetry) {
    if (current.isPresent() && current.get().generation() == joined.generation()) {
      return null;
    }
    deleted.end(key, joined.generation(), ticket);
    // This instance's copy of the settings is stale: read it again now rather than at its sync.
    settings.refresh();
    if (current.isPresent() && mayRetry) {
      return join(key, current.get(), request, false);
    }
    throw new RoomNotFoundException(key);
  }

  /**
   * A join's payload: {@code {"joined_at":<ms>,"priority":<n>}} and the grant's id when one was
   * used. Written by hand for the common case: it is what Jackson writes, at a fraction of the
   * cost.
   */
  static String joinPayload(long joinedAt, int priority, String grantId) {
    if (grantId != null) {
      ObjectNode payload = StoredJson.object();
      payload.put("joined_at", joinedAt);
      payload.put("priority", priority);
      payload.put("grant", grantId);
      return payload.toString();
    }
    return "{\"joined_at\":" + joinedAt + ",\"priority\":" + priority + "}";
  }

  /**
   * Waits for a poll record's write, which ends by itself (stored, failed, or timed out: {@link
   * RecordStore#putAsync}).
   *
   * @throws RuntimeException the engine's exception the write failed with ({@link
   *     RedisUnavailableException} when Redis did not answer in time)
   */
  private static void awaitStored(CompletableFuture<Void> write) {
    await(write);
  }

  /**
   * Waits for a command that ends by itself (answered, failed, or timed out).
   *
   * @throws RuntimeException the engine's exception the command failed with ({@link
   *     RedisUnavailableException} when Redis did not answer in time)
   */
  private static <T> T await(CompletableFuture<T> command) {
    try {
      // No timeout of its own: a timed wait costs a timer task per call on a virtual thread.
      return command.get();
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r
          ? r
          : new RedisUnavailableException("Redis did not answer", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RedisUnavailableException("Interrupted while waiting for Redis", e);
    }
  }
}
