package io.lineup.dispatch;

import io.lineup.core.SyncedRecords;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the endpoints in Redis on this instance: a {@link SyncedRecords} copy of their settings,
 * read every {@value #INTERVAL_MS} ms (and at once after a change here); after each read it reads
 * their breakers, applies their limits, and runs, updates or stops their dispatchers.
 */
final class EndpointSync implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EndpointSync.class);

  /** How often an instance reads the endpoints and breakers from Redis, in milliseconds. */
  static final long INTERVAL_MS = 250;

  private final EndpointStore store;
  private final CircuitBreakers breakers;
  private final QueueLimits limits;
  private final BiFunction<EndpointKey, EndpointSpec, EndpointDispatcher> newDispatcher;
  private final Consumer<Set<String>> followers;
  private final Map<String, EndpointDispatcher> dispatchers = new ConcurrentHashMap<>();
  private volatile boolean closed;
  private volatile SyncedRecords<EndpointSpec> synced;

  /**
   * @param newDispatcher makes the dispatcher of an endpoint newly seen
   * @param followers told every endpoint's record id after each read (the callbacks follow the
   *     namespaces)
   */
  EndpointSync(
      EndpointStore store,
      CircuitBreakers breakers,
      QueueLimits limits,
      BiFunction<EndpointKey, EndpointSpec, EndpointDispatcher> newDispatcher,
      Consumer<Set<String>> followers) {
    this.store = store;
    this.breakers = breakers;
    this.limits = limits;
    this.newDispatcher = newDispatcher;
    this.followers = followers;
  }

  /** Starts following: reads once (dispatchers start at once), then every interval. */
  synchronized void start() {
    if (synced != null || closed) {
      return;
    }
    synced = store.follow(Duration.ofMillis(INTERVAL_MS));
    synced.addSyncListener(snapshot -> follow());
    syncQuietly();
  }

  /** The settings of a running dispatcher, or null when this instance runs none for the key. */
  EndpointSpec runningSpec(EndpointKey key) {
    EndpointDispatcher running = dispatchers.get(key.recordId());
    return running == null ? null : running.spec();
  }

  /**
   * Reads now (after a change here), when started; a failure is logged and the next interval tries
   * again.
   */
  void syncQuietly() {
    SyncedRecords<EndpointSpec> copy = synced;
    if (copy == null || closed) {
      return;
    }
    try {
      copy.syncNow();
    } catch (RuntimeException e) {
      LOG.warn("Could not read the dispatch endpoints: {}", e.getMessage());
    }
  }

  /**
   * Brings this instance's dispatchers and breakers in line with the newest copy of the endpoints
   * (under this lock, so that two reads at once leave the newer one in force).
   */
  private synchronized void follow() {
    if (closed) {
      return;
    }
    try {
      follow(synced.snapshot());
    } catch (RuntimeException e) {
      LOG.warn("Could not follow the dispatch endpoints: {}", e.getMessage());
    }
  }

  private void follow(Map<String, EndpointSpec> specs) {
    Map<String, BreakerState> storedBreakers = breakers.readAll(specs.keySet());
    specs.forEach((id, spec) -> {
      EndpointKey key = EndpointKey.ofRecordId(id);
      BreakerState breaker = breakers.halfOpenIfDue(key, spec, storedBreakers.get(id));
      limits.apply(key, spec, breaker, false);
      dispatchers.computeIfAbsent(id, x -> newDispatcher.apply(key, spec)).update(spec);
    });
    for (String id : List.copyOf(dispatchers.keySet())) {
      if (!specs.containsKey(id)) {
        EndpointDispatcher gone = dispatchers.remove(id);
        limits.forget(gone.key());
        Thread.ofVirtual().start(gone::close);
      }
    }
    followers.accept(specs.keySet());
  }

  /** Stops following and the dispatchers (their running requests finish or go back in line). */
  @Override
  public void close() {
    closed = true;
    SyncedRecords<EndpointSpec> copy = synced;
    if (copy != null) {
      copy.close();
    }
    synchronized (this) {
      Dispatcher.closeAll(dispatchers.values().stream().map(d -> (Runnable) d::close).toList());
      dispatchers.clear();
    }
  }
}
