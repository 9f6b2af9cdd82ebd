package io.lineup.dispatch;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the endpoints in Redis on this instance: every {@value #INTERVAL_MS} ms (and at once
 * after a change here) it reads them and their breakers, applies their limits, and runs, updates or
 * stops their dispatchers. The one place that reads the shared records in a loop.
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
  private Thread loop;

  /**
   * @param newDispatcher makes the dispatcher of an endpoint newly seen
   * @param followers told every record id after each read (the callbacks follow the namespaces)
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

  /** Reads once, then starts the loop. */
  synchronized void start() {
    if (loop != null) {
      return;
    }
    syncQuietly();
    loop = Thread.ofVirtual().name("lineup-dispatch-sync").start(this::run);
  }

  /** The settings of a running dispatcher, or null when this instance runs none for the key. */
  EndpointSpec runningSpec(EndpointKey key) {
    EndpointDispatcher running = dispatchers.get(key.recordId());
    return running == null ? null : running.spec();
  }

  private void run() {
    while (!closed) {
      try {
        Thread.sleep(INTERVAL_MS);
      } catch (InterruptedException e) {
        return;
      }
      syncQuietly();
    }
  }

  /** Reads now; a failure is logged and the next round tries again. */
  void syncQuietly() {
    if (closed) {
      return;
    }
    try {
      sync();
    } catch (RuntimeException e) {
      LOG.warn("Could not read the dispatch endpoints: {}", e.getMessage());
    }
  }

  /** Brings this instance's dispatchers and breakers in line with what Redis holds. */
  private synchronized void sync() {
    Map<String, String> stored = store.all();
    Map<String, BreakerState> storedBreakers = breakers.readAll(stored.keySet());
    for (var entry : stored.entrySet()) {
      String id = entry.getKey();
      EndpointKey key = EndpointKey.ofRecordId(id);
      EndpointSpec spec;
      try {
        spec = EndpointStore.read(entry.getValue()).spec();
      } catch (RuntimeException e) {
        LOG.warn("Endpoint {} has settings this server cannot read: {}", id, e.getMessage());
        continue;
      }
      BreakerState breaker = breakers.halfOpenIfDue(key, spec, storedBreakers.get(id));
      limits.apply(key, spec, breaker, false);
      dispatchers.computeIfAbsent(id, x -> newDispatcher.apply(key, spec)).update(spec);
    }
    for (String id : List.copyOf(dispatchers.keySet())) {
      if (!stored.containsKey(id)) {
        EndpointDispatcher gone = dispatchers.remove(id);
        limits.forget(gone.key());
        Thread.ofVirtual().start(gone::close);
      }
    }
    followers.accept(stored.keySet());
  }

  /** Stops the loop and the dispatchers (their running requests finish or go back in line). */
  @Override
  public void close() {
    closed = true;
    if (loop != null) {
      loop.interrupt();
    }
    synchronized (this) {
      Dispatcher.closeAll(dispatchers.values().stream().map(d -> (Runnable) d::close).toList());
      dispatchers.clear();
    }
  }
}
