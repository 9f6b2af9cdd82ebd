package io.lineup.dispatch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.core.RecordStore;
import io.lineup.core.SyncedRecords;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The endpoints in Redis, one record each: {@code {"spec": ..., "created_at", "updated_at"}}, read
 * by every instance.
 */
final class EndpointStore {
  /** One stored endpoint. */
  record Stored(EndpointSpec spec, long createdAt, long updatedAt) {}

  private final RecordStore records;

  EndpointStore(RecordStore records) {
    this.records = records;
  }

  /**
   * Stores an endpoint, keeping its creation time when it replaces one.
   *
   * @return the one replaced, or empty when new
   */
  Optional<Stored> put(EndpointKey key, EndpointSpec spec) {
    long now = System.currentTimeMillis();
    Optional<Stored> before = get(key);
    ObjectNode record = DispatchJson.object();
    record.set("spec", spec.toStored());
    record.put("created_at", before.map(Stored::createdAt).orElse(now));
    record.put("updated_at", now);
    records.put(key.recordId(), new String(DispatchJson.write(record), StandardCharsets.UTF_8));
    return before;
  }

  Optional<Stored> get(EndpointKey key) {
    return records.get(key.recordId()).map(EndpointStore::read);
  }

  /** Every endpoint's record text, by record id ({@link EndpointKey#recordId()}). */
  Map<String, String> all() {
    return records.all();
  }

  /**
   * Starts this instance's copy of every endpoint's settings, by record id, read again every {@code
   * interval}; a record whose id names no endpoint or whose text this version never could read is
   * left out (and logged once), and one whose new text it cannot read (written by a newer version)
   * keeps its last readable settings, so that its dispatcher runs on.
   */
  SyncedRecords<EndpointSpec> follow(Duration interval) {
    return SyncedRecords.start(
        records,
        (id, text) -> {
          // A record whose id names no endpoint is skipped like bad text.
          EndpointKey.ofRecordId(id);
          return read(text).spec();
        },
        interval);
  }

  boolean delete(EndpointKey key) {
    return records.delete(key.recordId());
  }

  /**
   * Reads a record's text.
   *
   * @throws RuntimeException when it is not an endpoint this version can read
   */
  static Stored read(String text) {
    JsonNode record = DispatchJson.parseStored(text, "endpoint");
    return new Stored(
        EndpointSpec.fromStored(record.path("spec")),
        record.path("created_at").asLong(),
        record.path("updated_at").asLong());
  }
}
