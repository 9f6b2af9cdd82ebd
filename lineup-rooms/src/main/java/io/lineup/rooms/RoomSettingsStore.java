package io.lineup.rooms;

import io.lineup.core.Lineup;
import io.lineup.core.RecordStore;
import io.lineup.core.SyncedRecords;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The rooms' settings (record store {@code rooms}, read by every instance) and this instance's copy
 * of them ({@link SyncedRecords}, read again every {@link #SYNC_INTERVAL}), so that a change made
 * through another instance holds here within that interval, and one made here at once.
 */
final class RoomSettingsStore implements AutoCloseable {
  /** How often this instance reads every room's settings again: 1 s. */
  static final Duration SYNC_INTERVAL = Duration.ofSeconds(1);

  private final RecordStore rooms;
  private final SyncedRecords<RoomRecord> synced;

  /** The copy by room, and the snapshot it was made from (made again when that changes). */
  private record ByRoom(Map<String, RoomRecord> from, Map<RoomKey, RoomSpec> specs) {}

  private volatile ByRoom byRoom;

  /**
   * Starts this instance's copy of the rooms' settings.
   *
   * @param lineup the engine
   * @param interval how often the copy is read again ({@link #SYNC_INTERVAL} but in tests that hold
   *     an instance's copy stale on purpose)
   */
  RoomSettingsStore(Lineup lineup, Duration interval) {
    this.rooms = lineup.records("rooms");
    this.synced =
        SyncedRecords.start(
            rooms,
            (id, text) -> {
              RoomKey.parse(id); // a record whose id names no room is skipped like bad text
              return RoomRecord.parse(text);
            },
            interval);
  }

  /** The record store itself (the sweep asks whether a room still exists). */
  RecordStore records() {
    return rooms;
  }

  /** This instance's copy of every room's settings, as of the last sync (unmodifiable). */
  Map<RoomKey, RoomSpec> known() {
    Map<String, RoomRecord> snapshot = synced.snapshot();
    ByRoom current = byRoom;
    if (current == null || current.from() != snapshot) {
      Map<RoomKey, RoomSpec> specs = new LinkedHashMap<>();
      snapshot.forEach((id, record) -> specs.put(RoomKey.parse(id), record.spec()));
      current = new ByRoom(snapshot, Collections.unmodifiableMap(specs));
      byRoom = current;
    }
    return current.specs();
  }

  /** Stores the room's record; this instance sees it at once. */
  void save(RoomKey key, RoomRecord record) {
    rooms.put(key.toString(), record.text());
    synced.syncNow();
  }

  /** Deletes the room's settings; returns whether it existed. */
  boolean delete(RoomKey key) {
    boolean existed = rooms.delete(key.toString());
    synced.syncNow();
    return existed;
  }

  /**
   * The settings of a room: this instance's copy, else read from Redis (a room made on another
   * instance since the last sync).
   *
   * @throws RoomNotFoundException when there is no such room
   */
  RoomSpec spec(RoomKey key) {
    return current(key).spec();
  }

  /**
   * The record of a room (settings and generation): this instance's copy, else read from Redis.
   *
   * @throws RoomNotFoundException when there is no such room
   */
  RoomRecord current(RoomKey key) {
    return synced
        .get(key.toString())
        .or(() -> stored(key))
        .orElseThrow(() -> new RoomNotFoundException(key));
  }

  /** Reads every room's settings again now (this instance's copy was found stale). */
  void refresh() {
    synced.syncNow();
  }

  /** The room's stored record, read from Redis, or empty. */
  Optional<RoomRecord> stored(RoomKey key) {
    return rooms.get(key.toString()).map(RoomRecord::parse);
  }

  @Override
  public void close() {
    synced.close();
  }
}
