package io.lineup.rooms;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.core.Lineup;
import io.lineup.core.RecordStore;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.Limits;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.PublishResult;
import io.lineup.core.model.QueueStats;
import io.lineup.core.model.RedisUnavailableException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Joins of a room's line: the priority (the caller's, a lower one asked for, or a grant's), the
 * ticket's poll record and its place in line (or in the pre-queue before the event start), and its
 * first answer.
 */
final class TicketJoins {
  private final Lineup lineup;
  private final RecordStore polls;
  private final RoomIds ids;
  private final RoomGrants grants;
  private final PreQueue preQueue;
  private final AdmissionTicker admissions;
  private final TicketReader reader;
  private final TicketPolls tickets;

  TicketJoins(
      Lineup lineup,
      RecordStore polls,
      RoomIds ids,
      RoomGrants grants,
      PreQueue preQueue,
      AdmissionTicker admissions,
      TicketReader reader,
      TicketPolls tickets) {
    this.lineup = lineup;
    this.polls = polls;
    this.ids = ids;
    this.grants = grants;
    this.preQueue = preQueue;
    this.admissions = admissions;
    this.reader = reader;
    this.tickets = tickets;
  }

  /**
   * Joins the line. The priority is the caller's maximum (0 for the admin), or a lower one the
   * request names, or a grant's; a request never raises it above what the caller or grant allows.
   * The admin may name any priority from -255 to 255.
   *
   * @throws InvalidArgumentException for a priority outside -255 to 255
   * @throws PriorityNotAllowedException above the allowed priority
   * @throws GrantRefusedException for an unknown, used, expired or mismatched grant
   * @throws RoomFullException for a full room of method reject
   */
  Ticket join(RoomKey key, RoomSpec spec, JoinRequest request) {
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
      grant = grants.check(key, grantId, request.subject());
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
      return reader.read(key, spec, ticket, now);
    }
    // The record is sent (maybe with other joins' records) beside the publish, and both are
    // awaited together: one wait instead of two. The join answers only once both are stored, so
    // nobody can poll or be handed the ticket's pass before its record exists.
    long quiet = admissions.quietMark(key);
    CompletableFuture<Void> recorded = polls.putAsync(ticket, record.text());
    // Should the publish fail, the record left behind is dropped by the sweep after the grace.
    PublishResult published =
        lineup.publish(key.queue(), NewJob.ofText(payload).id(ticket).priority(priority));
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
    try {
      // No timeout of its own: a timed wait costs a timer task per call on a virtual thread.
      write.get();
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r
          ? r
          : new RedisUnavailableException("a poll record was not stored", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RedisUnavailableException("Interrupted while waiting for Redis", e);
    }
  }
}
