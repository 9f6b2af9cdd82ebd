package io.lineup.rooms;

import io.lineup.core.Lineup;
import io.lineup.core.RecordStore;
import io.lineup.core.model.JobFinishedException;
import io.lineup.core.model.JobNotFoundException;
import io.lineup.core.model.JobState;
import java.util.Collection;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drops the places of tickets that stopped polling (after their room's grace), and forgets what the
 * room service no longer needs: ended leases, old abandonment and revocation markers, the dead
 * letters expired passes leave. Every instance sweeps; each step is safe to repeat.
 */
final class AbandonmentSweeper {
  private static final Logger LOG = LoggerFactory.getLogger(AbandonmentSweeper.class);

  private final Lineup lineup;
  private final RecordStore rooms;
  private final RecordStore polls;
  private final RecordStore leases;
  private final RecordStore revoked;
  private final Supplier<Map<RoomKey, RoomSpec>> known;
  private final PreQueue preQueue;

  AbandonmentSweeper(
      Lineup lineup,
      RecordStore rooms,
      RecordStore polls,
      RecordStore leases,
      RecordStore revoked,
      Supplier<Map<RoomKey, RoomSpec>> known,
      PreQueue preQueue) {
    this.lineup = lineup;
    this.rooms = rooms;
    this.polls = polls;
    this.leases = leases;
    this.revoked = revoked;
    this.known = known;
    this.preQueue = preQueue;
  }

  /**
   * Sweeps every {@link #interval} until interrupted or closed. The interval is checked every
   * {@link Rooms#SWEEP_INTERVAL_MS}, so a room with a shorter grace put meanwhile is swept at its
   * own pace from then on.
   */
  void loop(BooleanSupplier closed) {
    long lastSweep = 0;
    while (!closed.getAsBoolean()) {
      try {
        long now = System.currentTimeMillis();
        if (now - lastSweep >= interval(known.get().values()) || now < lastSweep) {
          sweep(now);
          lastSweep = now;
        }
        Thread.sleep(Rooms.SWEEP_INTERVAL_MS);
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException e) {
        if (!closed.getAsBoolean()) {
          LOG.warn("Sweeping rooms failed, trying again: {}", e.toString());
          try {
            Thread.sleep(1_000);
          } catch (InterruptedException ie) {
            return;
          }
        }
      }
    }
  }

  /**
   * How long an instance with these rooms waits between two sweeps, in ms: a {@link
   * Rooms#SWEEP_GRACE_SHARE}th of the shortest grace, from {@link Rooms#SWEEP_INTERVAL_MS} to
   * {@link Rooms#SWEEP_INTERVAL_MAX_MS} (the longest when there is no room).
   */
  static long interval(Collection<RoomSpec> rooms) {
    long shortestGrace = Long.MAX_VALUE;
    for (RoomSpec spec : rooms) {
      shortestGrace = Math.min(shortestGrace, spec.graceMs());
    }
    long share = shortestGrace / Rooms.SWEEP_GRACE_SHARE;
    return Math.max(Rooms.SWEEP_INTERVAL_MS, Math.min(Rooms.SWEEP_INTERVAL_MAX_MS, share));
  }

  /**
   * Drops the places of waiting tickets not polled within their room's grace (the place is
   * cancelled, so it is no longer counted), forgets ended leases and old markers, and purges the
   * dead letters expired passes leave.
   */
  void sweep(long now) {
    Map<RoomKey, RoomSpec> known = this.known.get();
    for (var e : polls.all().entrySet()) {
      String[] parts = e.getValue().split(" ");
      if (PollRecord.isMarker(e.getValue())) {
        if (now - PollRecord.markedAt(e.getValue()) > Rooms.MARKER_KEEP_MS) {
          polls.delete(e.getKey());
        }
        continue;
      }
      RoomKey key = RoomKey.parse(parts[0]);
      RoomSpec spec = known.get(key);
      if (spec == null) {
        if (!rooms.get(key.toString()).isPresent()) {
          // A ticket of a deleted room that its deletion did not end (its join's own check could
          // not read the room's record): ended now, as the deleted room's.
          String ticket = e.getKey();
          polls.put(ticket, PollRecord.roomDeleted(key, 0, now));
          preQueue.of(key).delete(ticket);
          try {
            lineup.cancel(key.queue(), ticket);
          } catch (JobNotFoundException | JobFinishedException ex) {
            // Ended already.
          }
        }
        continue;
      }
      if (now - Long.parseLong(parts[1]) > spec.graceMs()) {
        String ticket = e.getKey();
        if (preQueue.of(key).delete(ticket)) {
          polls.put(ticket, PollRecord.abandoned(key, now));
          continue;
        }
        try {
          JobState before = lineup.cancel(key.queue(), ticket);
          if (before == JobState.LEASED) {
            // Admitted, but nobody fetched its pass within the grace: the user left, and the
            // slot goes to the next ticket instead of waiting for the pass to expire.
            LOG.debug("Ticket {} was admitted but its pass never fetched: dropped", ticket);
          }
          polls.put(ticket, PollRecord.abandoned(key, now));
        } catch (JobNotFoundException | JobFinishedException ex) {
          // Ended already: left (the leave deletes the record itself), or dropped by another
          // instance's sweep that read the same record, whose marker may already stand in its
          // place. Only the record this sweep read goes, never a marker written since.
          polls.replace(ticket, e.getValue(), null);
        }
      }
    }
    for (var e : leases.all().entrySet()) {
      long deadline = Long.parseLong(e.getValue().split(" ")[1]);
      if (now - deadline > Rooms.MARKER_KEEP_MS) {
        leases.delete(e.getKey());
      }
    }
    for (var e : revoked.all().entrySet()) {
      long exp = Long.parseLong(e.getValue().split(" ")[1]);
      if (now - exp > Rooms.MARKER_KEEP_MS) {
        revoked.delete(e.getKey());
      }
    }
    for (RoomKey key : known.keySet()) {
      lineup.purgeDead(key.queue());
    }
  }
}
