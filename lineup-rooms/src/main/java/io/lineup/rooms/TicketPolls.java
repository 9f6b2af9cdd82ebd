package io.lineup.rooms;

import io.lineup.core.Lineup;
import io.lineup.core.RecordStore;
import io.lineup.core.model.JobFinishedException;
import io.lineup.core.model.JobNotFoundException;
import io.lineup.core.model.LeaseLostException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * What a ticket's holder does after joining: polls (each keeps the place for another grace), leaves
 * or gives the slot back, and renews the pass.
 */
final class TicketPolls {
  private final Lineup lineup;
  private final RecordStore polls;
  private final RecordStore leases;
  private final PreQueue preQueue;
  private final AdmissionTicker admissions;
  private final TicketReader reader;

  TicketPolls(
      Lineup lineup,
      RecordStore polls,
      RecordStore leases,
      PreQueue preQueue,
      AdmissionTicker admissions,
      TicketReader reader) {
    this.lineup = lineup;
    this.polls = polls;
    this.leases = leases;
    this.preQueue = preQueue;
    this.admissions = admissions;
    this.reader = reader;
  }

  /**
   * A ticket as it stands; a poll of a waiting ticket keeps its place for another grace period.
   *
   * @throws MalformedIdException for a malformed id
   * @throws TicketNotFoundException for an unknown ticket
   */
  Ticket poll(RoomKey key, RoomSpec spec, String ticket) {
    Rooms.checkTicketId(ticket);
    long now = System.currentTimeMillis();
    PollRecord record = polls.get(ticket).map(PollRecord::parse).orElse(null);
    if (record != null) {
      record = record.polledAt(now);
      polls.put(ticket, record.text());
    }
    admissions.admitIfOpen(key, spec, now);
    Ticket view = reader.read(key, spec, ticket, record, now);
    if (record != null && view.reason() == GoneReason.ABANDONED) {
      // The sweep dropped the ticket between this poll's read of its record and its write, which
      // went over the sweep's marker: the marker goes back, so the ticket keeps reading as dropped
      // and the sweep does not take it for a waiting one.
      polls.put(ticket, PollRecord.abandoned(key, now));
    }
    return view;
  }

  /**
   * The poll record that keeps a followed ticket's place: made from the ticket when it waits in
   * line (no read), read when it is in the pre-queue; null when it is admitted or gone.
   */
  PollRecord record(RoomKey key, Ticket ticket) {
    return switch (ticket.status()) {
      case WAITING ->
          ticket.priority() != null && ticket.joinedAt() != null
              ? new PollRecord(
                  key.toString(), System.currentTimeMillis(), ticket.joinedAt(), ticket.priority())
              : polls.get(ticket.id()).map(PollRecord::parse).orElse(null);
      case PRE_QUEUE -> polls.get(ticket.id()).map(PollRecord::parse).orElse(null);
      case ADMITTED, GONE -> null;
    };
  }

  /**
   * Leaves the line, or gives back an admitted ticket's slot (its pass stops verifying online).
   *
   * @throws MalformedIdException for a malformed id
   * @throws TicketNotFoundException for an unknown ticket
   */
  Departure leave(RoomKey key, RoomSpec spec, String ticket) {
    Rooms.checkTicketId(ticket);
    TicketStatus status = reader.read(key, spec, ticket, System.currentTimeMillis()).status();
    switch (status) {
      case PRE_QUEUE -> preQueue.of(key).delete(ticket);
      case ADMITTED -> release(key, ticket);
      case WAITING -> cancelQuietly(key, ticket);
      case GONE -> {
        // Gone already: only its record goes.
      }
    }
    polls.delete(ticket);
    if (status == TicketStatus.ADMITTED) {
      admissions.open(key);
      admissions.admit(key, spec); // the freed slot goes to the next ticket at once
    }
    return new Departure(ticket, status);
  }

  /**
   * Renews an admitted ticket's pass for another pass lifetime, when the room allows it.
   *
   * @throws MalformedIdException for a malformed id
   * @throws NotRenewableException when the room does not allow it or the ticket is not admitted
   */
  Ticket renew(RoomKey key, RoomSpec spec, String ticket) {
    Rooms.checkTicketId(ticket);
    if (!spec.renewable()) {
      throw new NotRenewableException("passes of this room are not renewable");
    }
    Optional<String> lease = leases.get(ticket);
    if (lease.isEmpty()) {
      throw new NotRenewableException("the ticket holds no pass");
    }
    String[] parts = lease.get().split(" ");
    String token = parts[0];
    // A pass past its expiry has ended even while the engine has not taken its lease back yet (its
    // reclaim runs every few hundred ms): the ticket already reads gone, so it is not renewed.
    if (parts.length > 1 && Long.parseLong(parts[1]) <= System.currentTimeMillis()) {
      throw new NotRenewableException("the pass has ended");
    }
    try {
      Instant deadline =
          lineup.extend(key.queue(), ticket, token, Duration.ofMillis(spec.passTtlMs()));
      leases.put(ticket, AdmissionTicker.leaseRecord(token, deadline.toEpochMilli(), key));
    } catch (LeaseLostException | JobNotFoundException | JobFinishedException e) {
      throw new NotRenewableException("the pass has ended");
    }
    return reader.read(key, spec, ticket, System.currentTimeMillis());
  }

  /** Frees an admitted ticket's slot (counted as served, which the ETAs measure). */
  void release(RoomKey key, String ticket) {
    Optional<String> lease = leases.get(ticket);
    if (lease.isPresent()) {
      try {
        // An ack, not a cancel: the engine counts it as served, which its ETAs measure.
        lineup.ack(key.queue(), ticket, lease.get().split(" ")[0], null);
      } catch (LeaseLostException | JobNotFoundException | JobFinishedException e) {
        cancelQuietly(key, ticket);
      }
      leases.delete(ticket);
    } else {
      cancelQuietly(key, ticket);
    }
  }

  /** Takes the ticket out of the line; one gone already is what the caller wanted. */
  void cancelQuietly(RoomKey key, String ticket) {
    try {
      lineup.cancel(key.queue(), ticket);
    } catch (JobNotFoundException | JobFinishedException e) {
      // Gone already: what the caller wanted.
    }
  }
}
