package io.lineup.dispatch;

import io.lineup.core.RecordStore;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * The circuit breakers of every endpoint, shared by all instances: one record per endpoint in the
 * {@code dispatch-breakers} collection, changed only by an atomic replace of the value read, so two
 * instances counting failures at once never lose one, exactly one of them opens the breaker, and
 * exactly one task claims the probe of a half-open breaker. This instance also keeps the state it
 * last read or wrote ({@link #seen}), with when, so the sending path reads Redis only when that may
 * be out of date.
 */
final class Breakers {
  /** Replaces tried before a change gives up (each retry follows a change by another instance). */
  static final int MAX_TRIES = 100;

  private final RecordStore records;
  private final Map<String, Seen> seen = new ConcurrentHashMap<>();

  /**
   * A breaker as this instance last knew it.
   *
   * @param state the breaker
   * @param readAtNanos {@link System#nanoTime()} before the read or write that gave it
   */
  record Seen(BreakerState state, long readAtNanos) {
    /** How long ago it was read, in milliseconds. */
    long ageMs() {
      return (System.nanoTime() - readAtNanos) / 1_000_000;
    }
  }

  /**
   * A change: the breaker before and after it (equal when the change left it as it was).
   *
   * @param before the state the change was computed from
   * @param after the state stored (or left)
   */
  record Change(BreakerState before, BreakerState after) {
    boolean moved() {
      return before.state() != after.state();
    }
  }

  Breakers(RecordStore records) {
    this.records = records;
  }

  /** The breaker as this instance last knew it; read from Redis when never read. */
  Seen seen(EndpointKey key) {
    Seen known = seen.get(key.recordId());
    return known != null ? known : new Seen(read(key), System.nanoTime());
  }

  /** The breaker as Redis holds it now. */
  BreakerState read(EndpointKey key) {
    long at = System.nanoTime();
    BreakerState state = BreakerState.fromStored(records.get(key.recordId()).orElse(null));
    seen.put(key.recordId(), new Seen(state, at));
    return state;
  }

  /**
   * The breakers of these endpoints as Redis holds them now (closed when no record is stored), by
   * endpoint record id; this instance then knows only these.
   */
  Map<String, BreakerState> readAll(Collection<String> endpointIds) {
    long at = System.nanoTime();
    Map<String, String> stored = records.all();
    Map<String, BreakerState> all = new HashMap<>();
    for (String id : endpointIds) {
      BreakerState state = BreakerState.fromStored(stored.get(id));
      all.put(id, state);
      seen.put(id, new Seen(state, at));
    }
    seen.keySet().retainAll(all.keySet());
    return all;
  }

  /**
   * Changes a breaker for every instance: reads it, applies {@code change} and replaces the record
   * only if no other instance changed it meanwhile, else reads again and retries.
   *
   * @throws IllegalStateException when it kept changing under this instance {@value #MAX_TRIES}
   *     times
   */
  Change change(EndpointKey key, UnaryOperator<BreakerState> change) {
    for (int i = 0; i < MAX_TRIES; i++) {
      long at = System.nanoTime();
      String stored = records.get(key.recordId()).orElse(null);
      BreakerState before = BreakerState.fromStored(stored);
      BreakerState after = change.apply(before);
      if (after.equals(before)) {
        seen.put(key.recordId(), new Seen(before, at));
        return new Change(before, before);
      }
      if (records.replace(key.recordId(), stored, after.isClean() ? null : after.stored())) {
        seen.put(key.recordId(), new Seen(after, at));
        return new Change(before, after);
      }
    }
    throw new IllegalStateException("breaker of " + key + " kept changing; gave up");
  }

  /** Deletes an endpoint's breaker (the endpoint was deleted). */
  void delete(EndpointKey key) {
    records.delete(key.recordId());
    seen.remove(key.recordId());
  }

  /** Every breaker as this instance last knew it, by endpoint record id. */
  Map<String, BreakerState> known() {
    Map<String, BreakerState> known = new HashMap<>();
    seen.forEach((id, s) -> known.put(id, s.state()));
    return known;
  }
}
