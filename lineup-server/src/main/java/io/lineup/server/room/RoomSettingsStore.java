package io.lineup.server.room;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.core.Lineup;
import io.lineup.core.RecordStore;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.Json;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rooms' settings (record store {@code rooms}, read by every instance) and this instance's copy
 * of them, read again every second by the admission ticker, so that a change made through another
 * instance holds here within a second.
 */
final class RoomSettingsStore {
  private static final Logger LOG = LoggerFactory.getLogger(RoomSettingsStore.class);

  private final RecordStore rooms;
  private final Map<RoomKey, RoomSpec> known = new ConcurrentHashMap<>();

  RoomSettingsStore(Lineup lineup) {
    this.rooms = lineup.records("rooms");
  }

  /** The record store itself (the sweep asks whether a room still exists). */
  RecordStore records() {
    return rooms;
  }

  /** This instance's copy of every room's settings (live: changes show through). */
  Map<RoomKey, RoomSpec> known() {
    return known;
  }

  /** Stores the room's record and its settings. */
  void save(RoomKey key, RoomSpec spec, ObjectNode record) {
    rooms.put(key.toString(), Json.MAPPER.valueToTree(record).toString());
    known.put(key, spec);
  }

  /** Deletes the room's settings; returns whether it existed. */
  boolean delete(RoomKey key) {
    boolean existed = rooms.delete(key.toString());
    known.remove(key);
    return existed;
  }

  /**
   * The settings of a room.
   *
   * @throws ApiException 404 when there is no such room
   */
  RoomSpec spec(RoomKey key) {
    RoomSpec spec = known.get(key);
    if (spec != null) {
      return spec;
    }
    ObjectNode stored = stored(key).orElseThrow(() -> RoomService.noRoom(key));
    spec = RoomSpec.parse(settingsOnly(stored));
    known.put(key, spec);
    return spec;
  }

  private static ObjectNode settingsOnly(ObjectNode stored) {
    ObjectNode copy = stored.deepCopy();
    copy.remove("created_at");
    copy.remove("updated_at");
    return copy;
  }

  /** The room's stored record (settings, {@code created_at}, {@code updated_at}), or empty. */
  Optional<ObjectNode> stored(RoomKey key) {
    return rooms.get(key.toString()).map(RoomService::readObject);
  }

  /** Reads every room's settings again (what other instances changed or deleted). */
  void sync() {
    Map<RoomKey, RoomSpec> fresh = new LinkedHashMap<>();
    for (var e : rooms.all().entrySet()) {
      try {
        fresh.put(
            RoomKey.parse(e.getKey()),
            RoomSpec.parse(settingsOnly(RoomService.readObject(e.getValue()))));
      } catch (RuntimeException ex) {
        LOG.warn("Skipping the unreadable room record {}: {}", e.getKey(), ex.toString());
      }
    }
    known.keySet().retainAll(fresh.keySet());
    known.putAll(fresh);
  }
}
