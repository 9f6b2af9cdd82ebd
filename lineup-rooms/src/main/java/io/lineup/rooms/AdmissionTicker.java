package io.lineup.rooms;

import io.lineup.core.Lineup;
import io.lineup.core.RecordStore;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.Leases;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Admission on this instance: a lease of the room's tickets within its limits (checked in Redis, so
 * they hold across instances), made by a ticker for every room, on a release, and on joins and
 * polls while the room was not found full ({@link AdmissionGate}). An admission records the pass's
 * lease and tells this instance's watcher of the room ({@link RoomWatcher}), whose followers of the
 * ticket hear it at once; the ticket's poll record stays until its pass is handed out ({@link
 * TicketReader}).
 */
final class AdmissionTicker {
  private static final Logger LOG = LoggerFactory.getLogger(AdmissionTicker.class);

  private final Lineup lineup;
  private final RecordStore leases;
  private final Supplier<Map<RoomKey, RoomSpec>> known;
  private final PreQueue preQueue;
  private final BooleanSupplier closed;
  private final AdmissionGate gate = new AdmissionGate();
  private volatile BiConsumer<RoomKey, List<String>> onAdmitted = (key, tickets) -> {};
  private final Map<RoomKey, LeaseCounts> leaseCounts = new ConcurrentHashMap<>();

  /** A room's admission calls on this instance: started, and ended (answered or failed). */
  private static final class LeaseCounts {
    final AtomicLong started = new AtomicLong();
    final AtomicLong ended = new AtomicLong();
  }

  AdmissionTicker(
      Lineup lineup,
      RecordStore leases,
      Supplier<Map<RoomKey, RoomSpec>> known,
      PreQueue preQueue,
      BooleanSupplier closed) {
    this.lineup = lineup;
    this.leases = leases;
    this.known = known;
    this.preQueue = preQueue;
    this.closed = closed;
  }

  /** Lets joins and polls try again at once (a slot was freed, or the room changed). */
  void open(RoomKey key) {
    gate.open(key);
  }

  /**
   * {@link #admit} unless an attempt on this instance met the room's limits within the last {@link
   * #ADMIT_INTERVAL_MS} ({@link AdmissionGate}); returns how many were admitted.
   */
  int admitIfOpen(RoomKey key, RoomSpec spec, long now) {
    return gate.isOpen(key, now) ? admit(key, spec) : 0;
  }

  /**
   * Marks the present, for {@link #noneSince}: this instance's count of the room's admission calls,
   * or -1 when one is under way (it may still take tickets published from now on).
   */
  long quietMark(RoomKey key) {
    LeaseCounts counts = leaseCounts.computeIfAbsent(key, k -> new LeaseCounts());
    // Ended first: when no call ended in between and the counts are equal, none was under way
    // from the first read until the second.
    long ended = counts.ended.get();
    long started = counts.started.get();
    return ended == started ? started : -1;
  }

  /**
   * Whether no admission call of the room started on this instance since {@code mark} ({@link
   * #quietMark}, taken when none was under way): then none of this instance's took a ticket
   * published after the mark.
   */
  boolean noneSince(RoomKey key, long mark) {
    LeaseCounts counts = leaseCounts.get(key);
    return mark >= 0 && counts != null && counts.started.get() == mark;
  }

  /** Admits as many of the room's tickets as its limits allow now; returns how many. */
  int admit(RoomKey key, RoomSpec spec) {
    if (spec.suspended()) {
      return 0;
    }
    int admitted = 0;
    while (!closed.getAsBoolean()) {
      LeaseCounts counts = leaseCounts.computeIfAbsent(key, k -> new LeaseCounts());
      counts.started.incrementAndGet();
      Leases got;
      try {
        got = lineup.lease(key.queue(), Rooms.ADMIT_BATCH, Duration.ZERO);
      } finally {
        counts.ended.incrementAndGet();
      }
      gate.record(key, got, System.currentTimeMillis());
      List<String> ids = new ArrayList<>(got.jobs().size());
      for (LeasedJob job : got.jobs()) {
        leases.put(job.id(), leaseRecord(job.token(), job.leaseDeadline().toEpochMilli(), key));
        ids.add(job.id());
      }
      if (!ids.isEmpty()) {
        onAdmitted.accept(key, ids);
      }
      admitted += got.jobs().size();
      if (got.jobs().size() < Rooms.ADMIT_BATCH) {
        return admitted;
      }
    }
    return admitted;
  }

  /**
   * The record of an admitted ticket's lease (record store {@code room-leases}): {@code <token>
   * <deadline ms> <room>}; the room lets a deletion find its admitted tickets. (Records written by
   * earlier versions have no room.)
   */
  static String leaseRecord(String token, long deadlineMs, RoomKey key) {
    return token + " " + deadlineMs + " " + key;
  }

  /** Who hears of this instance's admissions (the rooms' watchers), told after their leases. */
  void onAdmitted(BiConsumer<RoomKey, List<String>> listener) {
    this.onAdmitted = listener;
  }

  /**
   * Admits every room's tickets every {@link Rooms#ADMIT_INTERVAL_MS} until closed (the rooms as
   * this instance's copy of their settings knows them).
   */
  void loop() {
    while (!closed.getAsBoolean()) {
      try {
        long now = System.currentTimeMillis();
        for (var e : known.get().entrySet()) {
          preQueue.open(e.getKey(), e.getValue(), now);
          admit(e.getKey(), e.getValue());
        }
        Thread.sleep(Rooms.ADMIT_INTERVAL_MS);
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException e) {
        if (!closed.getAsBoolean()) {
          LOG.warn("Admitting tickets failed, trying again: {}", e.toString());
          try {
            Thread.sleep(500);
          } catch (InterruptedException ie) {
            return;
          }
        }
      }
    }
  }
}
