package io.lineup.rooms;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.core.Lineup;
import io.lineup.core.RecordStore;
import io.lineup.core.model.Eta;
import io.lineup.core.model.JobInfo;
import io.lineup.pass.Pass;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Reads where a ticket stands: waiting (position, ETA, when to poll), pre-queue, admitted (the
 * pass, signed with the room's current key) or gone (and why).
 */
final class TicketReader {
  private final Lineup lineup;
  private final RecordStore polls;
  private final RecordStore leases;
  private final RecordStore revoked;
  private final PreQueue preQueue;
  private final RoomEtas etas;
  private final RoomSigningKeys signingKeys;

  TicketReader(
      Lineup lineup,
      RecordStore polls,
      RecordStore leases,
      RecordStore revoked,
      PreQueue preQueue,
      RoomEtas etas,
      RoomSigningKeys signingKeys) {
    this.lineup = lineup;
    this.polls = polls;
    this.leases = leases;
    this.revoked = revoked;
    this.preQueue = preQueue;
    this.etas = etas;
    this.signingKeys = signingKeys;
  }

  /**
   * A ticket without counting as a poll.
   *
   * @throws TicketNotFoundException when the room has no such ticket
   */
  Ticket read(RoomKey key, RoomSpec spec, String ticket, long now) {
    return read(key, spec, ticket, polls.get(ticket).map(PollRecord::parse).orElse(null), now);
  }

  /**
   * A ticket. One whose poll record says when it joined and is in line needs only its position (one
   * ZRANK) and the room's ETA estimate (read at most every {@link RoomEtas#READ_EVERY_MS}); any
   * other is read whole from the engine.
   *
   * @throws TicketNotFoundException when the room has no such ticket
   */
  Ticket read(RoomKey key, RoomSpec spec, String ticket, PollRecord record, long now) {
    if (record != null && record.knowsTicket() && record.room().equals(key.toString())) {
      long position = lineup.position(key.queue(), ticket);
      if (position >= 0) {
        return waitingAt(key, spec, ticket, record, position, now);
      }
    }
    Ticket full = readWhole(key, spec, ticket, now);
    if (record != null && full.status() == TicketStatus.ADMITTED) {
      // The pass is being handed out: from now on the ticket needs no polling. Until then the
      // record stays, so an admitted ticket whose user left before fetching the pass is dropped
      // after the grace like a waiting one, instead of holding its slot until the pass expires.
      polls.delete(ticket);
    }
    return full;
  }

  /**
   * A ticket known to be waiting at {@code position} (0 = next), such as a publish just reported
   * it: no read from the engine but the room's ETA estimate's (at most every {@link
   * RoomEtas#READ_EVERY_MS}).
   */
  Ticket waitingAt(
      RoomKey key, RoomSpec spec, String ticket, PollRecord record, long position, long now) {
    Eta eta = etas.eta(key, spec, position, now);
    return Ticket.waiting(
        ticket,
        key,
        record.priority(),
        record.joinedAt(),
        position,
        eta,
        pollAfter(spec, eta),
        spec.graceMs());
  }

  /** When the ticket joined: the time its payload names (the server's), else its publish. */
  private static long joinedAt(JobInfo job) {
    try {
      JsonNode payload = StoredJson.MAPPER.readTree(job.payload());
      long named = payload == null ? 0 : payload.path("joined_at").asLong(0);
      if (named > 0) {
        return named;
      }
    } catch (IOException | RuntimeException e) {
      // Not a room payload: the publish time is the best there is.
    }
    return job.createdAt().toEpochMilli();
  }

  private Ticket readWhole(RoomKey key, RoomSpec spec, String ticket, long now) {
    Optional<JobInfo> found = lineup.get(key.queue(), ticket);
    if (found.isEmpty()) {
      Optional<String> pre = preQueue.of(key).get(ticket);
      if (pre.isEmpty()) {
        // An expired pass's record went with the dead letters the sweep purges; its lease record
        // (kept for an hour) still tells what happened.
        if (leases.get(ticket).isPresent()) {
          return Ticket.gone(ticket, key, null, null, GoneReason.EXPIRED);
        }
        if (polls.get(ticket).filter(PollRecord::isAbandonedMarker).isPresent()) {
          return Ticket.gone(ticket, key, null, null, GoneReason.ABANDONED);
        }
        throw new TicketNotFoundException(key, ticket);
      }
      return Ticket.preQueue(
          ticket, key, spec.eventStartAt(), pollAfter(spec, null), spec.graceMs());
    }
    JobInfo job = found.get();
    int priority = job.priority();
    long joinedAt = joinedAt(job);
    return switch (job.state()) {
      case READY, DELAYED -> {
        // The room's estimate, as a ticket read by its position alone has it (the engine's own
        // knows nothing of pass lifetimes until admissions were measured).
        Eta eta = job.position() >= 0 ? etas.eta(key, spec, job.position(), now) : job.eta();
        yield Ticket.waiting(
            ticket,
            key,
            priority,
            joinedAt,
            job.position(),
            eta,
            pollAfter(spec, eta),
            spec.graceMs());
      }
      case LEASED -> {
        long deadline = job.leaseDeadline().toEpochMilli();
        if (now >= deadline) {
          // The pass's lifetime is over to the millisecond; the engine frees the slot by itself
          // (reclaiming the lease) a little later.
          yield Ticket.gone(ticket, key, priority, joinedAt, GoneReason.EXPIRED);
        }
        Pass pass = passOf(key, job);
        RoomSigningKeys.KeySet set = signingKeys.keySet(key, false);
        AdmittedPass admitted =
            new AdmittedPass(
                set.signer().sign(withKey(pass, set.current())),
                pass.id(),
                job.startedAt().toEpochMilli(),
                deadline,
                spec.renewable());
        yield Ticket.admitted(
            ticket,
            key,
            priority,
            joinedAt,
            admitted,
            pollAfter(spec, Ticket.NO_WAIT),
            spec.graceMs());
      }
      default -> Ticket.gone(ticket, key, priority, joinedAt, goneReason(ticket, job));
    };
  }

  private GoneReason goneReason(String ticket, JobInfo job) {
    if (job.startedAt() != null && revoked.get(jtiOf(job)).isPresent()) {
      // A revocation gives the slot back as a release does (or cancels the ticket when its lease
      // was lost); its marker, kept an hour beyond the pass's expiry, tells them apart.
      return GoneReason.REVOKED;
    }
    return switch (job.state()) {
      case DONE -> GoneReason.RELEASED;
      case DEAD, EXPIRED -> GoneReason.EXPIRED;
      default ->
          // Only the sweep cancels a ticket that was admitted (it was admitted while the sweep
          // dropped it); the admission may have deleted the sweep's marker in the meantime. A
          // leave deletes the ticket's record, while the sweep leaves its marker, which a poll
          // that read the record just before the sweep dropped the ticket may have written over
          // (TicketPolls.poll then puts the marker back): a record of either kind means dropped.
          job.startedAt() != null || polls.get(ticket).isPresent()
              ? GoneReason.ABANDONED
              : GoneReason.LEFT;
    };
  }

  private static long pollAfter(RoomSpec spec, Eta eta) {
    // A quarter of the low end; of the point when the low end is 0, as it is for an estimate from
    // the room's limits alone (every pass may be given back at once), which would otherwise have
    // a whole unmeasured line poll at the shortest interval.
    Duration basis = eta == null ? null : eta.low().isZero() ? eta.point() : eta.low();
    long wanted = basis == null ? Rooms.MIN_POLL_MS * 2 : basis.toMillis() / 4;
    long bounded = Math.max(Rooms.MIN_POLL_MS, Math.min(Rooms.MAX_POLL_MS, wanted));
    // Polls keep the place: at least three chances within the grace.
    return Math.max(200, Math.min(bounded, spec.graceMs() / 3));
  }

  private static Pass withKey(Pass pass, String kid) {
    return new Pass(pass.room(), pass.ticket(), pass.id(), pass.issuedAt(), pass.expiresAt(), kid);
  }

  /**
   * The pass of an admitted ticket (signing key left for the caller to fill in). Its {@code exp} is
   * in whole seconds (RFC 7519), rounded up from the lease's deadline so that an offline check
   * never ends the pass before its {@code pass_ttl_ms} (at most 1 s after); where Lineup checks
   * (the ticket's state, the online check), the deadline itself, in ms, ends it.
   */
  private static Pass passOf(RoomKey key, JobInfo job) {
    long startedMs = job.startedAt().toEpochMilli();
    String jti = jtiOf(job);
    Instant exp = Instant.ofEpochSecond(Math.ceilDiv(job.leaseDeadline().toEpochMilli(), 1000));
    return new Pass(
        key.toString(), job.id(), jti, Instant.ofEpochSecond(startedMs / 1000), exp, "-");
  }

  /** The pass id of a ticket's latest admission: the ticket and the moment of its lease. */
  static String jtiOf(JobInfo job) {
    return job.startedAt() == null
        ? ""
        : job.id() + "." + Long.toString(job.startedAt().toEpochMilli(), 36);
  }
}
