package io.lineup.rooms;

import io.lineup.core.Lineup;
import io.lineup.core.RecordStore;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * This instance's {@link RoomWatcher}s: one per room with followers, started by the room's first
 * follower and ended once it has none (checked at its next round). Thread-safe.
 */
final class RoomWatchers {
  private final Lineup lineup;
  private final RecordStore polls;
  private final RoomSettingsStore settings;
  private final TicketReader reader;
  // Guarded by this.
  private final Map<RoomKey, RoomWatcher> watchers = new HashMap<>();
  private boolean closed;

  RoomWatchers(Lineup lineup, RecordStore polls, RoomSettingsStore settings, TicketReader reader) {
    this.lineup = lineup;
    this.polls = polls;
    this.settings = settings;
    this.reader = reader;
  }

  /** Registers a follower with its room's watcher, starting the watcher when there is none. */
  synchronized void register(RoomKey key, TicketWatch watch) {
    if (closed) {
      watch.end();
      return;
    }
    RoomWatcher watcher = watchers.get(key);
    if (watcher == null) {
      RoomWatcher started = new RoomWatcher(key, lineup, polls, settings, reader, this);
      watchers.put(key, started);
      Thread.ofVirtual().name("lineup-room-watch-" + key).start(started::run);
      watcher = started;
    }
    watcher.add(watch);
  }

  /** Unregisters a follower; its room's watcher ends at its next round when it was the last. */
  synchronized void unregister(RoomKey key, TicketWatch watch) {
    RoomWatcher watcher = watchers.get(key);
    if (watcher != null) {
      watcher.remove(watch);
    }
  }

  /** Drops the watcher when its room has no followers left; returns whether it did. */
  synchronized boolean retireIfIdle(RoomWatcher watcher) {
    if (!watcher.isEmpty() && !closed) {
      return false;
    }
    watchers.values().remove(watcher);
    return true;
  }

  /** This instance admitted these tickets of the room: their followers hear it at once. */
  void admitted(RoomKey key, List<String> tickets) {
    RoomWatcher watcher;
    synchronized (this) {
      watcher = watchers.get(key);
    }
    if (watcher != null) {
      watcher.admitted(tickets);
    }
  }

  /** How many followers (streams, long polls) the room has on this instance. */
  synchronized int followers(RoomKey key) {
    RoomWatcher watcher = watchers.get(key);
    return watcher == null ? 0 : watcher.size();
  }

  /** How many followers every room has on this instance, by room (rooms with none left out). */
  synchronized Map<RoomKey, Integer> followers() {
    Map<RoomKey, Integer> counts = new HashMap<>();
    watchers.forEach((k, w) -> counts.put(k, w.size()));
    counts.values().removeIf(n -> n == 0);
    return counts;
  }

  /** Stops every watcher and ends every following. */
  synchronized void close() {
    closed = true;
    watchers.values().forEach(RoomWatcher::stop);
    watchers.clear();
  }
}
