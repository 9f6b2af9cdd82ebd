package io.lineup.dispatch;

import io.lineup.core.Lineup;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The endpoints: created, replaced, read and deleted here; stored in Redis, where every instance's
 * {@link EndpointSync} picks them up.
 */
public final class Endpoints {
  private final Lineup lineup;
  private final EndpointStore store;
  private final CircuitBreakers breakers;
  private final QueueLimits limits;
  private final RegistrationCheck registration;
  private final EndpointSync sync;

  Endpoints(
      Lineup lineup,
      EndpointStore store,
      CircuitBreakers breakers,
      QueueLimits limits,
      RegistrationCheck registration,
      EndpointSync sync) {
    this.lineup = lineup;
    this.store = store;
    this.breakers = breakers;
    this.limits = limits;
    this.registration = registration;
    this.sync = sync;
  }

  /**
   * Creates or replaces an endpoint; its limits hold at once, and every instance sends its tasks
   * within {@link Dispatcher#SYNC_INTERVAL_MS} ms.
   *
   * @return true when it was created, false when replaced
   * @throws DispatchInputException {@code egress_refused} naming {@code base_url} when the egress
   *     policy never lets a request reach it, {@code invalid_field} for a port out of range or an
   *     adaptive {@code max} above the {@code concurrency}
   */
  public boolean put(EndpointKey key, EndpointSpec spec) {
    registration.check("base_url", spec.baseUrl());
    spec.checkTogether();
    boolean created = store.put(key, spec).isEmpty();
    limits.apply(key, spec, breakers.seen(key).state(), false);
    sync.syncQuietly();
    return created;
  }

  /**
   * Pauses or resumes an endpoint for every instance: its stored settings change ({@code paused})
   * and its queue follows at once. Resuming does not touch the circuit breaker: while the breaker
   * is open the queue stays paused ({@link CircuitOpenException}).
   *
   * @return the endpoint after the change
   * @throws EndpointNotFoundException when unknown
   * @throws CircuitOpenException when resuming an endpoint whose breaker is open or half open:
   *     nothing was changed
   */
  public EndpointView setPaused(EndpointKey key, boolean paused) {
    EndpointStore.Stored stored =
        store.get(key).orElseThrow(() -> new EndpointNotFoundException(key));
    if (!paused) {
      BreakerState breaker = breakers.read(key);
      if (stored.spec().breakerFailures() > 0 && breaker.state() != BreakerState.State.CLOSED) {
        throw new CircuitOpenException(key, breaker);
      }
    }
    if (stored.spec().paused() != paused) {
      EndpointSpec spec = stored.spec().withPaused(paused);
      store.put(key, spec);
      limits.apply(key, spec, breakers.seen(key).state(), true);
      sync.syncQuietly();
    }
    return find(key).orElseThrow(() -> new EndpointNotFoundException(key));
  }

  /**
   * Closes the endpoint's circuit breaker and clears its count of failures, for every instance; the
   * queue is resumed unless the endpoint itself is paused.
   *
   * @return the endpoint after the reset
   * @throws EndpointNotFoundException when unknown
   */
  public EndpointView resetCircuit(EndpointKey key) {
    EndpointSpec spec = spec(key);
    breakers.reset(key, spec);
    return find(key).orElseThrow(() -> new EndpointNotFoundException(key));
  }

  /** An endpoint as it stands, or empty when unknown. */
  public Optional<EndpointView> find(EndpointKey key) {
    return store.get(key).map(stored -> view(key, stored));
  }

  /** The endpoints of a namespace. */
  public List<EndpointView> list(String namespace) {
    List<EndpointView> views = new ArrayList<>();
    for (var entry : store.all().entrySet()) {
      if (entry.getKey().startsWith(namespace + "/")) {
        EndpointKey key =
            new EndpointKey(namespace, entry.getKey().substring(namespace.length() + 1));
        views.add(view(key, EndpointStore.read(entry.getValue())));
      }
    }
    return views;
  }

  /**
   * Deletes an endpoint with its recurring schedules (those on its queue, {@link Tasks#recurring}):
   * its dispatchers stop within {@link Dispatcher#SYNC_INTERVAL_MS} ms and its schedules submit no
   * further task; its queued tasks stay in its queue (a new endpoint of the same name sends them,
   * and starts with no schedule). The schedules go even when the endpoint was already gone, since
   * nothing would send their tasks.
   *
   * @return whether it existed
   */
  public boolean delete(EndpointKey key) {
    boolean existed = store.delete(key);
    breakers.delete(key);
    // Its schedules would go on queueing tasks that no dispatcher sends.
    var schedules = lineup.schedules();
    for (var schedule : schedules.list(key.queue())) {
      schedules.delete(key.queue(), schedule.name());
    }
    sync.syncQuietly();
    return existed;
  }

  /**
   * The endpoint's settings: those its dispatcher here runs with, else those stored.
   *
   * @throws EndpointNotFoundException when unknown
   */
  public EndpointSpec spec(EndpointKey key) {
    EndpointSpec running = sync.runningSpec(key);
    if (running != null) {
      return running;
    }
    return store
        .get(key)
        .map(EndpointStore.Stored::spec)
        .orElseThrow(() -> new EndpointNotFoundException(key));
  }

  private EndpointView view(EndpointKey key, EndpointStore.Stored stored) {
    return new EndpointView(
        key,
        stored.spec(),
        stored.createdAt(),
        stored.updatedAt(),
        breakers.read(key),
        lineup.stats(key.queue()),
        stored.spec().adaptive() == null
            ? null
            : lineup.adaptiveLimits().read(key.queue()).orElse(null));
  }
}
