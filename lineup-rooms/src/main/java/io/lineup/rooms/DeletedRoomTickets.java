package io.lineup.rooms;

import io.lineup.core.Lineup;
import io.lineup.core.RecordStore;
import io.lineup.core.model.JobFinishedException;
import io.lineup.core.model.JobNotFoundException;
import io.lineup.core.model.PeekedJob;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;

/**
 * Ends every ticket of a deleted room, and reads them later: each is marked {@code room_deleted} in
 * the record store {@code room-polls} (kept {@link Rooms#MARKER_KEEP_MS}), then taken out of the
 * line, the pre-queue or its slot. A marker is written before its ticket ends, so that no read in
 * between takes the ended ticket for one that left or was abandoned.
 */
final class DeletedRoomTickets {
  /** Tickets ended per engine read of the line. */
  static final int BATCH = 1_000;

  private final Lineup lineup;
  private final RecordStore polls;
  private final RecordStore leases;
  private final PreQueue preQueue;

  DeletedRoomTickets(Lineup lineup, RecordStore polls, RecordStore leases, PreQueue preQueue) {
    this.lineup = lineup;
    this.polls = polls;
    this.leases = leases;
    this.preQueue = preQueue;
  }

  /**
   * Ends every ticket the room's queue, pre-queue, leases and poll records hold, as tickets of
   * generation {@code generation} of the room, deleted.
   *
   * @return how many tickets were ended
   */
  int endAll(RoomKey key, long generation) {
    long now = System.currentTimeMillis();
    int ended = 0;
    // Waiting tickets, a batch at a time until the line is empty (the queue is paused and its
    // fence refuses every join, even one through an instance that has not seen the delete).
    while (true) {
      List<PeekedJob> batch = lineup.peek(key.queue(), 0, BATCH);
      if (batch.isEmpty()) {
        break;
      }
      Map<String, String> markers = new LinkedHashMap<>();
      batch.forEach(job -> markers.put(job.id(), PollRecord.roomDeleted(key, generation, now)));
      store(markers);
      markers.keySet().forEach(ticket -> cancelQuietly(key, ticket));
      ended += batch.size();
    }
    // Tickets held before the event start.
    RecordStore pre = preQueue.of(key);
    Map<String, String> held = pre.all();
    if (!held.isEmpty()) {
      Map<String, String> markers = new LinkedHashMap<>();
      held.keySet().forEach(t -> markers.put(t, PollRecord.roomDeleted(key, generation, now)));
      store(markers);
      held.keySet().forEach(pre::delete);
      ended += held.size();
    }
    // Admitted tickets: their slots are freed, so their passes fail the online check.
    for (var e : leases.all().entrySet()) {
      String[] parts = e.getValue().split(" ");
      if (parts.length >= 3 && parts[2].equals(key.toString())) {
        polls.put(e.getKey(), PollRecord.roomDeleted(key, generation, now));
        cancelQuietly(key, e.getKey());
        leases.delete(e.getKey());
        ended++;
      }
    }
    // Tickets whose place was taken before their poll record was read here (admitted, their pass
    // not yet fetched): their records go, with markers instead.
    for (var e : polls.all().entrySet()) {
      PollRecord record = PollRecord.parse(e.getValue());
      if (record != null && record.room().equals(key.toString())) {
        polls.put(e.getKey(), PollRecord.roomDeleted(key, generation, now));
        cancelQuietly(key, e.getKey());
      }
    }
    return ended;
  }

  /**
   * Ends one ticket of a deleted generation of the room (one an instance added without having seen
   * the delete).
   */
  void end(RoomKey key, long generation, String ticket) {
    polls.put(ticket, PollRecord.roomDeleted(key, generation, System.currentTimeMillis()));
    preQueue.of(key).delete(ticket);
    cancelQuietly(key, ticket);
  }

  /**
   * A ticket of a deleted room: gone, reason {@code room_deleted}, while its marker is kept; else
   * empty.
   */
  Optional<Ticket> read(RoomKey key, String ticket) {
    if (!Rooms.isTicketId(ticket)) {
      return Optional.empty();
    }
    return polls
        .get(ticket)
        .filter(PollRecord::isRoomDeletedMarker)
        .filter(marker -> PollRecord.markedRoom(marker).equals(key.toString()))
        .map(marker -> Ticket.gone(ticket, key, null, null, GoneReason.ROOM_DELETED));
  }

  /** Writes the markers in one command and waits for it. */
  private void store(Map<String, String> markers) {
    try {
      polls.putAllAsync(markers).join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : e;
    }
  }

  private void cancelQuietly(RoomKey key, String ticket) {
    try {
      lineup.cancel(key.queue(), ticket);
    } catch (JobNotFoundException | JobFinishedException e) {
      // Ended already: what the delete wanted.
    }
  }
}
