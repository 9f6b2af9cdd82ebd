package io.lineup.server.room;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.core.Lineup;
import io.lineup.core.RecordStore;
import io.lineup.core.model.Eta;
import io.lineup.core.model.JobInfo;
import io.lineup.pass.Pass;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.Json;
import java.io.IOException;
import java.time.Instant;
import java.util.Optional;

/**
 * What a ticket's answer says: waiting (position, ETA, when to poll), pre-queue, admitted (the
 * pass, signed with the room's current key) or gone (and why).
 */
final class TicketViews {
  private final Lineup lineup;
  private final RecordStore polls;
  private final RecordStore leases;
  private final PreQueue preQueue;
  private final RoomEtas etas;
  private final RoomSigningKeys signingKeys;

  TicketViews(
      Lineup lineup,
      RecordStore polls,
      RecordStore leases,
      PreQueue preQueue,
      RoomEtas etas,
      RoomSigningKeys signingKeys) {
    this.lineup = lineup;
    this.polls = polls;
    this.leases = leases;
    this.preQueue = preQueue;
    this.etas = etas;
    this.signingKeys = signingKeys;
  }

  /** A ticket's view without counting as a poll. */
  ObjectNode ticketView(RoomKey key, RoomSpec spec, String ticket, long now) {
    return view(key, spec, ticket, polls.get(ticket).map(PollRecord::parse).orElse(null), now);
  }

  /**
   * A ticket's view. A ticket whose poll record says when it joined and is in line needs only its
   * position (one ZRANK) and the room's ETA estimate (read at most every {@link
   * RoomEtas#READ_EVERY_MS}); any other is read whole from the engine.
   */
  ObjectNode view(RoomKey key, RoomSpec spec, String ticket, PollRecord record, long now) {
    if (record != null && record.knowsTicket() && record.room().equals(key.toString())) {
      long position = lineup.position(key.queue(), ticket);
      if (position >= 0) {
        return waitingView(key, spec, ticket, position, record.joinedAt(), record.priority(), now);
      }
    }
    ObjectNode full = fullView(key, spec, ticket, now);
    if (record != null && full.path("status").asText().equals("admitted")) {
      // The pass is being handed out: from now on the ticket needs no polling. Until then the
      // record stays, so an admitted ticket whose user left before fetching the pass is dropped
      // after the grace like a waiting one, instead of holding its slot until the pass expires.
      polls.delete(ticket);
    }
    return full;
  }

  /**
   * The view of a ticket known to be waiting at {@code position} (0 = next), such as a publish just
   * reported it: no read from the engine but the room's ETA estimate's (at most every {@link
   * RoomEtas#READ_EVERY_MS}).
   */
  ObjectNode waitingAt(
      RoomKey key, RoomSpec spec, String ticket, PollRecord record, long position, long now) {
    return waitingView(key, spec, ticket, position, record.joinedAt(), record.priority(), now);
  }

  private ObjectNode waitingView(
      RoomKey key,
      RoomSpec spec,
      String ticket,
      long position,
      long joinedAt,
      int priority,
      long now) {
    ObjectNode v = Json.object();
    v.put("ticket", ticket);
    v.put("room", key.toString());
    v.put("priority", priority);
    v.put("joined_at", joinedAt);
    v.put("status", "waiting");
    v.put("position", position);
    Eta eta = etas.eta(key, position, now);
    putEta(v, eta);
    v.put("poll_after_ms", pollAfter(spec, eta));
    v.put("grace_ms", spec.graceMs());
    return v;
  }

  private static void putEta(ObjectNode v, Eta eta) {
    if (eta == null) {
      v.putNull("eta_ms");
      v.putNull("eta_low_ms");
      v.putNull("eta_high_ms");
    } else {
      v.put("eta_ms", eta.point().toMillis());
      v.put("eta_low_ms", eta.low().toMillis());
      v.put("eta_high_ms", eta.high().toMillis());
    }
  }

  /** When the ticket joined: the time its payload names (the server's), else its publish. */
  private static long joinedAt(JobInfo job) {
    try {
      long named = Json.MAPPER.readTree(job.payload()).path("joined_at").asLong(0);
      if (named > 0) {
        return named;
      }
    } catch (IOException | RuntimeException e) {
      // Not a room payload: the publish time is the best there is.
    }
    return job.createdAt().toEpochMilli();
  }

  private ObjectNode fullView(RoomKey key, RoomSpec spec, String ticket, long now) {
    ObjectNode v = Json.object();
    v.put("ticket", ticket);
    v.put("room", key.toString());
    Optional<JobInfo> found = lineup.get(key.queue(), ticket);
    if (found.isEmpty()) {
      Optional<String> pre = preQueue.of(key).get(ticket);
      if (pre.isEmpty()) {
        // An expired pass's record went with the dead letters the sweep purges; its lease record
        // (kept for an hour) still tells what happened.
        if (leases.get(ticket).isPresent()) {
          v.put("status", "gone");
          v.put("reason", "expired");
          return v;
        }
        if (polls.get(ticket).filter(PollRecord::isAbandonedMarker).isPresent()) {
          v.put("status", "gone");
          v.put("reason", "abandoned");
          return v;
        }
        throw ApiException.notFound("no ticket " + ticket + " in room " + key);
      }
      v.put("status", "pre_queue");
      v.putNull("position");
      v.put("opens_at", spec.eventStartAt());
      v.put("poll_after_ms", pollAfter(spec, null));
      v.put("grace_ms", spec.graceMs());
      return v;
    }
    JobInfo job = found.get();
    v.put("priority", job.priority());
    v.put("joined_at", joinedAt(job));
    switch (job.state()) {
      case READY, DELAYED -> {
        v.put("status", "waiting");
        v.put("position", job.position());
        Eta eta = job.eta();
        putEta(v, eta);
        v.put("poll_after_ms", pollAfter(spec, eta));
        v.put("grace_ms", spec.graceMs());
      }
      case LEASED -> {
        v.put("status", "admitted");
        Pass pass = passOf(key, job);
        RoomSigningKeys.KeySet set = signingKeys.keySet(key, false);
        v.put("pass", set.signer().sign(withKey(pass, set.current())));
        v.put("pass_id", pass.id());
        v.put("admitted_at", job.startedAt().toEpochMilli());
        v.put("pass_expires_at", pass.expiresAt().toEpochMilli());
        v.put("renewable", spec.renewable());
      }
      default -> {
        v.put("status", "gone");
        v.put("reason", goneReason(ticket, job));
      }
    }
    return v;
  }

  private String goneReason(String ticket, JobInfo job) {
    return switch (job.state()) {
      case DONE -> "released";
      case DEAD, EXPIRED -> "expired";
      default ->
          // Only the sweep cancels a ticket that was admitted (it was admitted while the sweep
          // dropped it); the admission may have deleted the sweep's marker in the meantime. A
          // leave deletes the ticket's record, while the sweep leaves its marker, which a poll
          // that read the record just before the sweep dropped the ticket may have written over
          // (RoomService.poll then puts the marker back): a record of either kind means dropped.
          job.startedAt() != null || polls.get(ticket).isPresent() ? "abandoned" : "left";
    };
  }

  private static long pollAfter(RoomSpec spec, Eta eta) {
    long wanted = eta == null ? RoomService.MIN_POLL_MS * 2 : eta.low().toMillis() / 4;
    long bounded = Math.max(RoomService.MIN_POLL_MS, Math.min(RoomService.MAX_POLL_MS, wanted));
    // Polls keep the place: at least three chances within the grace.
    return Math.max(200, Math.min(bounded, spec.graceMs() / 3));
  }

  private static Pass withKey(Pass pass, String kid) {
    return new Pass(pass.room(), pass.ticket(), pass.id(), pass.issuedAt(), pass.expiresAt(), kid);
  }

  /** The pass of an admitted ticket (signing key left for the caller to fill in). */
  private static Pass passOf(RoomKey key, JobInfo job) {
    long startedMs = job.startedAt().toEpochMilli();
    String jti = jtiOf(job);
    Instant exp = Instant.ofEpochSecond(job.leaseDeadline().getEpochSecond());
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
