package io.lineup.core;

import io.lineup.core.internal.RedisGateway;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A small named collection of records in Redis (one hash), for the server's own data such as
 * namespaces and hashed tokens. Every instance reads the same data, so a change is seen everywhere
 * at once. Not for jobs; values are whole records, written and read in one step.
 */
public final class RecordStore {
  /** Longest collection name and record id, in characters. */
  public static final int MAX_NAME_LENGTH = 128;

  private final RedisGateway gateway;
  private final byte[] key;

  RecordStore(RedisGateway gateway, String collection) {
    if (collection == null || collection.isEmpty() || collection.length() > MAX_NAME_LENGTH) {
      throw new InvalidArgumentException(
          "collection", "must be 1 to " + MAX_NAME_LENGTH + " characters");
    }
    this.gateway = gateway;
    this.key = io.lineup.core.internal.KeySpace.recordCollection(collection);
  }

  /** Stores or replaces a record. */
  public void put(String id, String value) {
    gateway.await(gateway.commands().hset(key, bytes(id), bytes(value)));
  }

  /** Stores a record unless one with this id exists; returns whether it stored. */
  public boolean putIfAbsent(String id, String value) {
    return Boolean.TRUE.equals(
        gateway.await(gateway.commands().hsetnx(key, bytes(id), bytes(value))));
  }

  /** A record, or empty. */
  public Optional<String> get(String id) {
    byte[] value = gateway.await(gateway.commands().hget(key, bytes(id)));
    return value == null
        ? Optional.empty()
        : Optional.of(new String(value, StandardCharsets.UTF_8));
  }

  /** Deletes a record; returns whether it existed. */
  public boolean delete(String id) {
    Long removed = gateway.await(gateway.commands().hdel(key, bytes(id)));
    return removed != null && removed > 0;
  }

  /** Every record, sorted by id. */
  public Map<String, String> all() {
    Map<byte[], byte[]> raw = gateway.await(gateway.commands().hgetall(key));
    Map<String, String> sorted = new TreeMap<>();
    raw.forEach((k, v) ->
        sorted.put(new String(k, StandardCharsets.UTF_8), new String(v, StandardCharsets.UTF_8)));
    return new LinkedHashMap<>(sorted);
  }

  private static byte[] bytes(String text) {
    if (text == null) {
      throw new InvalidArgumentException("record", "must not be null");
    }
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
