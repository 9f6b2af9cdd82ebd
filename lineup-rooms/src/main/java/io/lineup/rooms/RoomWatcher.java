package io.lineup.rooms;

import io.lineup.core.Lineup;
import io.lineup.core.RecordStore;
import io.lineup.core.model.QueueEvent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one watcher of a room on this instance while the room has followers (event streams, long
 * polls): it alone reads Redis for them, whatever their number.
 *
 * <p>Every {@link #CHECK_INTERVAL_MS} ms (or at once when this instance admits one of the followed
 * tickets) it reads the entries of the room queue's event stream after the last one it saw (one
 * XRANGE): every state change of a ticket, made through any instance, appends one, naming the
 * tickets it moved. A followed ticket named there is read at once and handed to its followers (so
 * an admission or a departure goes out at once). Any entry means positions may have moved: the
 * places of all followed tickets are then read together (one pipeline of ZRANKs) at most every
 * {@link #POSITION_EVERY_MS} ms, so a waiting ticket's followers get at most one position change a
 * second. An idle room costs one XRANGE per check, and a touch of all its followed tickets' poll
 * records in one write every {@link #touchEveryMs} (following keeps a ticket's place).
 *
 * <p>The event stream keeps about its last 1,000 entries: should more come between two reads, the
 * ones missed still make the positions dirty (the next entries do), and the batched read places
 * every followed ticket, reading whole those no longer in line, within {@link #POSITION_EVERY_MS}.
 *
 * <p>The event stream and the ready line are keys of the room's queue, which share one hash slot,
 * so each read goes to one node of a Redis Cluster.
 */
final class RoomWatcher {
  private static final Logger LOG = LoggerFactory.getLogger(RoomWatcher.class);

  /** How often the room's event stream is read, in ms. */
  static final long CHECK_INTERVAL_MS = 20;

  /** Positions of waiting tickets are read (and sent) at most this often, in ms. */
  static final long POSITION_EVERY_MS = 1_000;

  /** How often the followers' closing flags are checked, in ms. */
  static final long CLOSING_CHECK_MS = 250;

  /** Event stream entries read per call. */
  static final int EVENTS_PER_READ = 500;

  /** Changed tickets read at once. */
  static final int READS_AT_ONCE = 32;

  /** Wait after a failed round (Redis away), in ms. */
  static final long RETRY_MS = 500;

  /**
   * How often following touches a ticket's poll record, keeping its place: a third of the room's
   * grace (what the suggested poll interval allows at most), from 250 ms to 15 s.
   */
  static long touchEveryMs(RoomSpec spec) {
    return Math.max(250, Math.min(Rooms.MAX_POLL_MS, spec.graceMs() / 3));
  }

  private final RoomKey key;
  private final Lineup lineup;
  private final RecordStore polls;
  private final RoomSettingsStore settings;
  private final TicketReader reader;
  private final RoomWatchers registry;
  private final Set<TicketWatch> watches = ConcurrentHashMap.newKeySet();
  private final Queue<TicketWatch> fresh = new ConcurrentLinkedQueue<>();
  private final Set<String> admitted = ConcurrentHashMap.newKeySet();
  private final Map<String, Integer> followedTickets = new ConcurrentHashMap<>();
  private final Semaphore wake = new Semaphore(0);
  // Bumped by every add and remove: the followers by ticket are gathered again only then, not at
  // every round (a round of an idle room with 20,000 followers then costs no more than one with 1).
  private final AtomicLong membership = new AtomicLong();
  private long gatheredAt = -1;
  private Map<String, List<TicketWatch>> followersByTicket = Map.of();
  private volatile boolean stopped;
  private String lastEventId;
  private boolean started;
  private boolean positionsDirty;
  private long positionsReadAt;
  private long touchedAt;
  private long closingCheckedAt;

  RoomWatcher(
      RoomKey key,
      Lineup lineup,
      RecordStore polls,
      RoomSettingsStore settings,
      TicketReader reader,
      RoomWatchers registry) {
    this.key = key;
    this.lineup = lineup;
    this.polls = polls;
    this.settings = settings;
    this.reader = reader;
    this.registry = registry;
  }

  /** Adds a follower (called under the registry's lock); its ticket is read at the next round. */
  void add(TicketWatch watch) {
    watches.add(watch);
    followedTickets.merge(watch.ticket(), 1, Integer::sum);
    membership.incrementAndGet();
    fresh.add(watch);
    wake.release();
  }

  /** Removes a follower (called under the registry's lock). */
  void remove(TicketWatch watch) {
    if (watches.remove(watch)) {
      followedTickets.computeIfPresent(watch.ticket(), (t, n) -> n == 1 ? null : n - 1);
      membership.incrementAndGet();
    }
  }

  /** How many followers the room has on this instance. */
  int size() {
    return watches.size();
  }

  boolean isEmpty() {
    return watches.isEmpty();
  }

  /** This instance admitted these tickets: the ones followed here are read at once. */
  void admitted(List<String> tickets) {
    boolean any = false;
    for (String t : tickets) {
      if (followed(t)) {
        admitted.add(t);
        any = true;
      }
    }
    if (any) {
      wake.release();
    }
  }

  private boolean followed(String ticket) {
    return followedTickets.containsKey(ticket);
  }

  /** Stops the watcher and ends its followings (the rooms close). */
  void stop() {
    stopped = true;
    wake.release();
    watches.forEach(TicketWatch::end);
  }

  /** Runs rounds until the room has no followers on this instance or the rooms close. */
  void run() {
    while (!stopped) {
      try {
        if (wake.tryAcquire(CHECK_INTERVAL_MS, TimeUnit.MILLISECONDS)) {
          wake.drainPermits();
        }
      } catch (InterruptedException e) {
        return;
      }
      if (registry.retireIfIdle(this)) {
        return;
      }
      try {
        round(System.currentTimeMillis());
      } catch (RoomNotFoundException e) {
        watches.forEach(w -> w.fail(e));
      } catch (RuntimeException e) {
        if (stopped) {
          return;
        }
        LOG.warn("Watching room {} failed, trying again: {}", key, e.toString());
        try {
          Thread.sleep(RETRY_MS);
        } catch (InterruptedException ie) {
          return;
        }
      }
    }
  }

  private void round(long now) {
    RoomSpec spec = settings.spec(key);
    if (!started) {
      // The present of the stream first: what the followers' tickets read afterwards (as fresh)
      // misses no change made after it.
      lastEventId = lineup.lastEventId(key.queue());
      started = true;
    }
    // The fresh ones first: a follower is in the watch set before it is in the fresh queue, so each
    // one taken here is among those gathered next.
    Set<String> toPlace = new HashSet<>();
    for (TicketWatch w; (w = fresh.poll()) != null; ) {
      toPlace.add(w.ticket());
    }
    Map<String, List<TicketWatch>> byTicket = gathered();
    Set<String> changed = new HashSet<>();
    for (String t : admitted) {
      admitted.remove(t);
      changed.add(t);
    }
    boolean readAll = readEvents(byTicket.keySet(), changed);
    if (readAll || (positionsDirty && now - positionsReadAt >= POSITION_EVERY_MS)) {
      toPlace.addAll(byTicket.keySet());
      positionsDirty = false;
      positionsReadAt = now;
    }
    readWhole(spec, changed, byTicket, now);
    toPlace.removeAll(changed);
    place(spec, toPlace, byTicket, now);
    if (now - touchedAt >= touchEveryMs(spec)) {
      touch(byTicket.values(), now);
      touchedAt = now;
    }
    if (now - closingCheckedAt >= CLOSING_CHECK_MS) {
      closingCheckedAt = now;
      for (TicketWatch w : watches) {
        if (w.closing()) {
          w.end();
        }
      }
    }
  }

  /** The followers by ticket, gathered again when followers came or went since the last time. */
  private Map<String, List<TicketWatch>> gathered() {
    long version = membership.get();
    if (version != gatheredAt) {
      Map<String, List<TicketWatch>> gathering = new LinkedHashMap<>();
      for (TicketWatch w : watches) {
        gathering.computeIfAbsent(w.ticket(), t -> new ArrayList<>(1)).add(w);
      }
      followersByTicket = gathering;
      gatheredAt = version;
    }
    return followersByTicket;
  }

  /**
   * Reads the event stream's new entries: the followed tickets they name go into {@code changed},
   * and any entry makes the positions dirty.
   *
   * @return whether every followed ticket must be placed now (an entry too big to name its tickets)
   */
  private boolean readEvents(Set<String> followed, Set<String> changed) {
    List<QueueEvent> events = lineup.events(key.queue(), lastEventId, EVENTS_PER_READ);
    boolean all = false;
    for (QueueEvent e : events) {
      lastEventId = e.streamId();
      positionsDirty = true;
      if (e.count() > e.jobIds().size()) {
        // A batch of over 100 names only its first and last ticket: any followed one may be in it.
        all = true;
        continue;
      }
      for (String id : e.jobIds()) {
        if (followed.contains(id)) {
          changed.add(id);
        }
      }
    }
    if (events.size() == EVENTS_PER_READ) {
      wake.release(); // more to read: the next round comes at once
    }
    return all;
  }

  /**
   * Reads the followed tickets whose state changed and hands each to its followers. Several are
   * read at once ({@link #READS_AT_ONCE} at most, each on a virtual thread of its own, their
   * commands sharing the engine's connection), so that a burst of admissions (a slot-freeing
   * release, a room opened) reaches the last of its tickets within a few round trips rather than
   * after all of the others' reads.
   */
  private void readWhole(
      RoomSpec spec, Set<String> changed, Map<String, List<TicketWatch>> byTicket, long now) {
    List<String> tickets = new ArrayList<>(changed.size());
    for (String t : changed) {
      if (byTicket.containsKey(t)) {
        tickets.add(t);
      }
    }
    if (tickets.size() == 1) {
      readWhole(spec, tickets.get(0), byTicket.get(tickets.get(0)), now);
      return;
    }
    Semaphore slots = new Semaphore(READS_AT_ONCE);
    AtomicReference<RuntimeException> failed = new AtomicReference<>();
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      for (String t : tickets) {
        slots.acquireUninterruptibly();
        threads.submit(() -> {
          try {
            readWhole(spec, t, byTicket.get(t), now);
          } catch (RuntimeException e) {
            failed.compareAndSet(null, e);
          } finally {
            slots.release();
          }
        });
      }
    } // waits for every read: each ticket's watches are handed back to this thread after it
    if (failed.get() != null) {
      throw failed.get();
    }
  }

  /** Reads a ticket whose state changed and hands it to its followers. */
  private void readWhole(RoomSpec spec, String ticket, List<TicketWatch> ws, long now) {
    PollRecord record = ws.get(0).record();
    try {
      Ticket view = reader.read(key, spec, ticket, record, now);
      if (record != null && view.reason() == GoneReason.ABANDONED) {
        // As in TicketPolls.poll: a touch may have gone over the sweep's marker, which goes back.
        polls.put(ticket, PollRecord.abandoned(key, now));
      }
      deliver(ws, view, now);
    } catch (TicketNotFoundException e) {
      ws.forEach(w -> w.fail(e));
    }
  }

  /** Reads the places of these tickets together and hands the changed ones to their followers. */
  private void place(
      RoomSpec spec, Set<String> tickets, Map<String, List<TicketWatch>> byTicket, long now) {
    if (tickets.isEmpty()) {
      return;
    }
    List<String> ids = new ArrayList<>(tickets);
    long[] positions = lineup.positions(key.queue(), ids);
    for (int i = 0; i < ids.size(); i++) {
      List<TicketWatch> ws = byTicket.get(ids.get(i));
      if (ws == null) {
        continue;
      }
      PollRecord record = ws.get(0).record();
      if (positions[i] >= 0 && record != null && record.knowsTicket()) {
        deliver(ws, reader.waitingAt(key, spec, ids.get(i), record, positions[i], now), now);
      } else {
        // Not in line (pre-queue, admitted, gone) or its record does not know it: read whole.
        readWhole(spec, ids.get(i), ws, now);
      }
    }
  }

  private void deliver(List<TicketWatch> ws, Ticket view, long now) {
    for (TicketWatch w : ws) {
      if (view.status() == TicketStatus.WAITING
          && (w.record() == null || !w.record().knowsTicket())
          && view.priority() != null) {
        // Out of the pre-queue: from now on its place is read alone.
        w.record(new PollRecord(key.toString(), now, view.joinedAt(), view.priority()));
      }
      w.offer(view);
    }
  }

  /**
   * Keeps the places of the followed tickets that wait (in line or in the pre-queue): their poll
   * records, polled now, in one write.
   */
  private void touch(Collection<List<TicketWatch>> followed, long now) {
    Map<String, String> records = new HashMap<>();
    for (List<TicketWatch> ws : followed) {
      TicketWatch w = ws.get(0);
      if (w.open() && w.record() != null) {
        PollRecord polled = w.record().polledAt(now);
        ws.forEach(x -> x.record(polled));
        records.put(w.ticket(), polled.text());
      }
    }
    if (records.isEmpty()) {
      return;
    }
    try {
      polls.putAllAsync(records).get();
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stopped = true;
    }
  }
}
