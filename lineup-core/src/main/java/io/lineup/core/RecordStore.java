package io.lineup.core;

import io.lineup.core.internal.store.RedisStore;
import java.util.Map;
import java.util.Optional;

/**
 * A small named collection of records in Redis (one hash), for the server's own data such as
 * namespaces and hashed tokens. Every instance reads the same data, so a change is seen everywhere
 * at once. Not for jobs; values are whole records, written and read in one step.
 */
public final class RecordStore {
  /** Longest collection name and record id, in characters. */
  public static final int MAX_NAME_LENGTH = 128;

  private final RedisStore store;
  private final String collection;

  RecordStore(RedisStore store, String collection) {
    if (collection == null || collection.isEmpty() || collection.length() > MAX_NAME_LENGTH) {
      throw new InvalidArgumentException(
          "collection", "must be 1 to " + MAX_NAME_LENGTH + " characters");
    }
    this.store = store;
    this.collection = collection;
  }

  /** Stores or replaces a record. */
  public void put(String id, String value) {
    store.putRecord(collection, present(id), present(value));
  }

  /** Stores a record unless one with this id exists; returns whether it stored. */
  public boolean putIfAbsent(String id, String value) {
    return store.putRecordIfAbsent(collection, present(id), present(value));
  }

  /** A record, or empty. */
  public Optional<String> get(String id) {
    return store.record(collection, present(id));
  }

  /** Deletes a record; returns whether it existed. */
  public boolean delete(String id) {
    return store.deleteRecord(collection, present(id));
  }

  /** Every record, sorted by id. */
  public Map<String, String> all() {
    return store.records(collection);
  }

  private static String present(String text) {
    if (text == null) {
      throw new InvalidArgumentException("record", "must not be null");
    }
    return text;
  }
}
