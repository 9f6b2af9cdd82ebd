package io.lineup.core;

import io.lineup.core.internal.store.RedisStore;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.LineupException;
import io.lineup.core.model.RedisUnavailableException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

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
  private final RecordWrites writes;

  RecordStore(RedisStore store, String collection, RecordWrites writes) {
    if (collection == null || collection.isEmpty() || collection.length() > MAX_NAME_LENGTH) {
      throw new InvalidArgumentException(
          "collection", "must be 1 to " + MAX_NAME_LENGTH + " characters");
    }
    this.store = store;
    this.collection = collection;
    this.writes = writes;
  }

  /** Stores or replaces a record. */
  public void put(String id, String value) {
    store.putRecord(collection, present(id), present(value));
  }

  /**
   * Stores or replaces several records in one command (one round trip whatever their number),
   * without blocking: the caller may send other commands before waiting, or gather the records of
   * concurrent callers into one write.
   *
   * @param records ids and values; when empty, nothing is sent
   * @return completes when Redis stored them all (one command: all or none); fails with {@link
   *     RedisUnavailableException} or {@link LineupException} as the cause of a {@link
   *     java.util.concurrent.CompletionException}
   * @throws InvalidArgumentException when {@code records} is null or holds a null id or value
   *     (nothing is sent)
   */
  public CompletableFuture<Void> putAllAsync(Map<String, String> records) {
    if (records == null) {
      throw new InvalidArgumentException("records", "must not be null");
    }
    records.forEach((id, value) -> {
      present(id);
      present(value);
    });
    if (records.isEmpty()) {
      return CompletableFuture.completedFuture(null);
    }
    return store.putRecordsAsync(collection, records);
  }

  /**
   * Stores or replaces a record without blocking, maybe in one write with others: while {@link
   * LineupOptions#callsInFlightPerQueue} (default 2) writes of this engine to the collection are
   * under way, the records put meanwhile wait and then go together as one HSET (up to 1,000 records
   * and 1 MiB), in the order they were put. Alone, a put is one command at once. For many
   * concurrent callers (a sale's joins), each of which would otherwise cost a command's worth of
   * client CPU and Redis time.
   *
   * @return completes once stored; fails within the command timeout (counted from when its write
   *     was sent) with {@link RedisUnavailableException}, or with another {@link LineupException},
   *     as the cause of a {@link CompletionException}
   * @throws InvalidArgumentException when the id or the value is null (nothing is sent)
   */
  public CompletableFuture<Void> putAsync(String id, String value) {
    Map.Entry<String, String> record = Map.entry(present(id), present(value));
    return writes.put(collection, record);
  }

  /** Stores a record unless one with this id exists; returns whether it stored. */
  public boolean putIfAbsent(String id, String value) {
    return store.putRecordIfAbsent(collection, present(id), present(value));
  }

  /** A record, or empty. */
  public Optional<String> get(String id) {
    return store.record(collection, present(id));
  }

  /**
   * {@link #get} without blocking, for callers that go on from the reply (the server's lane looks a
   * token up this way). The future completes on the Redis client's I/O thread: a caller that does
   * more than a little work after it should move to a thread of its own first.
   *
   * @return the record, or empty; fails with {@link RedisUnavailableException} when Redis does not
   *     answer within the command timeout, or another {@link LineupException}, as the cause of a
   *     {@link CompletionException}
   * @throws InvalidArgumentException when the id is null (nothing is sent)
   */
  public CompletableFuture<Optional<String>> getAsync(String id) {
    return store.recordAsync(collection, present(id));
  }

  /**
   * Replaces a record only when it still holds the value the caller read, atomically (a compare and
   * set): instances that change one shared record read it, compute the next value and replace it,
   * and read again when another instance changed it in between.
   *
   * @param id the record's id
   * @param expected the value the record must hold; null when it must be absent
   * @param value the new value; null deletes the record
   * @return true when replaced (or deleted), false when the record held something else (then
   *     nothing is written)
   * @throws InvalidArgumentException when {@code id} is null
   * @throws RedisUnavailableException when Redis does not answer in time
   */
  public boolean replace(String id, String expected, String value) {
    return store.replaceRecord(collection, present(id), expected, value);
  }

  /** Deletes a record; returns whether it existed. */
  public boolean delete(String id) {
    return store.deleteRecord(collection, present(id));
  }

  /**
   * Deletes the whole collection once {@code ttl} has passed without another call, so data that
   * stops being written goes by itself. Each call starts the time again.
   *
   * @param ttl from 1 ms
   * @return whether the collection holds any record
   * @throws InvalidArgumentException when ttl is null or under 1 ms
   */
  public boolean expireAfter(Duration ttl) {
    if (ttl == null || ttl.toMillis() < 1) {
      throw new InvalidArgumentException("ttl", "must be at least 1 ms");
    }
    return store.expireRecords(collection, ttl);
  }

  /**
   * Some records in one command (HMGET), for a caller that knows the ids it wants of a large
   * collection.
   *
   * @param ids the ids, at most a few hundred
   * @return the value of each id in order, null where there is none
   * @throws InvalidArgumentException when an id is null
   */
  public List<String> getAll(List<String> ids) {
    ids.forEach(RecordStore::present);
    return store.records(collection, ids);
  }

  /**
   * Deletes records in one command (HDEL).
   *
   * @return how many of them existed
   * @throws InvalidArgumentException when an id is null
   */
  public long deleteAll(List<String> ids) {
    ids.forEach(RecordStore::present);
    return store.deleteRecords(collection, ids);
  }

  /** How many records the collection holds, without reading them. */
  public long size() {
    return store.recordCount(collection);
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
