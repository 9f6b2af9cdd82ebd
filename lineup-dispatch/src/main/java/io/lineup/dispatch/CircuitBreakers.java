package io.lineup.dispatch;

import io.lineup.core.ReleaseJobException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The endpoints' circuit breakers as the dispatchers use them: whether a task may be sent, and what
 * its attempt showed. Every change is shared through {@link Breakers}; when a breaker's state moves
 * the endpoint's queue settings follow.
 */
public final class CircuitBreakers {
  private static final Logger LOG = LoggerFactory.getLogger(CircuitBreakers.class);

  private final Breakers breakers;
  private final QueueLimits limits;

  CircuitBreakers(Breakers breakers, QueueLimits limits) {
    this.breakers = breakers;
    this.limits = limits;
  }

  /**
   * The breaker of every endpoint this instance follows, as it last read or set them, by namespace
   * and endpoint name.
   */
  public Map<EndpointKey, BreakerState> known() {
    Map<EndpointKey, BreakerState> all = new HashMap<>();
    breakers.known().forEach((id, state) -> all.put(EndpointKey.ofRecordId(id), state));
    return all;
  }

  /** The endpoint's breaker as stored in Redis. */
  public BreakerState read(EndpointKey key) {
    return breakers.read(key);
  }

  /** The breaker as this instance last read or set it. */
  Breakers.Seen seen(EndpointKey key) {
    return breakers.seen(key);
  }

  /** Every listed endpoint's breaker as stored, by record id. */
  Map<String, BreakerState> readAll(Set<String> ids) {
    return breakers.readAll(ids);
  }

  void delete(EndpointKey key) {
    breakers.delete(key);
  }

  /**
   * Decides whether a leased task may be sent, as far as the endpoint's breaker goes: returns false
   * to send it as usual, true when it is the one probe of a half-open breaker (claimed for every
   * instance; the caller reports its outcome or {@link #dropProbe}s it).
   *
   * <p>Redis is read only when this instance's view may be out of date: a closed breaker read less
   * than half a cool-down ago cannot have opened and become half open since, so it is trusted.
   *
   * @throws ReleaseJobException when the breaker is open or another task holds the probe: the task
   *     goes back to its place in line unsent and its attempt is not counted
   */
  boolean admit(EndpointKey key, String task, EndpointSpec spec) {
    if (spec.breakerFailures() == 0) {
      return false;
    }
    Breakers.Seen seen = breakers.seen(key);
    if (seen.state().state() == BreakerState.State.CLOSED
        && seen.ageMs() < spec.breakerCooldownMs() / 2) {
      return false;
    }
    long now = System.currentTimeMillis();
    BreakerState current = breakers.read(key);
    if (current.state() == BreakerState.State.OPEN && now >= current.openUntil()) {
      current = change(key, spec, b -> b.halfOpenIfDue(now)).after();
    }
    switch (current.state()) {
      case CLOSED -> {
        return false;
      }
      case HALF_OPEN -> {
        long until = now + spec.attemptTimeoutMs() + Dispatcher.LEASE_MARGIN_MS + 1000;
        BreakerState claimed =
            change(key, spec, b -> b.probeFree(task, now) ? b.probing(task, until) : b).after();
        if (claimed.state() == BreakerState.State.HALF_OPEN && claimed.probe().equals(task)) {
          LOG.info("Endpoint {}: circuit breaker half open, task {} is the probe", key, task);
          return true;
        }
        current = claimed;
      }
      case OPEN -> {
        // Leased although open: another instance's settings landed late. Put the queue right.
      }
    }
    limits.apply(key, spec, current, true);
    throw new ReleaseJobException("circuit breaker " + current.json());
  }

  /** A probe claimed by {@link #admit} was not sent after all: another task may probe. */
  void dropProbe(EndpointKey key, String task, EndpointSpec spec) {
    change(key, spec, b -> b.withoutProbe(task));
  }

  /** A failed attempt (connection error, timeout, 429, 5xx): counted for every instance. */
  void failure(EndpointKey key, EndpointSpec spec) {
    if (spec.breakerFailures() == 0) {
      return;
    }
    long now = System.currentTimeMillis();
    Breakers.Change change =
        change(
            key, spec, b -> b.afterFailure(spec.breakerFailures(), spec.breakerCooldownMs(), now));
    if (change.moved() && change.after().state() == BreakerState.State.OPEN) {
      LOG.warn(
          "Endpoint {}: {} consecutive failed attempts, circuit breaker open for {} ms",
          key,
          change.after().failures(),
          spec.breakerCooldownMs());
    }
  }

  /**
   * An answer that shows the endpoint up: the count starts again and a half-open breaker closes.
   * Writes only when this instance knows of failures or a breaker not closed, so a healthy endpoint
   * costs no Redis call per task.
   */
  void success(EndpointKey key, EndpointSpec spec) {
    if (spec.breakerFailures() == 0 || breakers.seen(key).state().isClean()) {
      return;
    }
    change(key, spec, BreakerState::afterSuccess);
  }

  /**
   * An open breaker whose cool-down is over lets one probe through. Every instance may try; the
   * replace lets exactly one move it, and the others read the half-open breaker it stored.
   *
   * @return the breaker now
   */
  BreakerState halfOpenIfDue(EndpointKey key, EndpointSpec spec, BreakerState breaker) {
    long now = System.currentTimeMillis();
    if (spec.breakerFailures() > 0
        && breaker.state() == BreakerState.State.OPEN
        && now >= breaker.openUntil()) {
      return change(key, spec, b -> b.halfOpenIfDue(now)).after();
    }
    return breaker;
  }

  /**
   * Closes the endpoint's breaker for every instance, with its count of failures cleared, as an
   * operator's reset: the queue's settings follow at once (resumed unless the endpoint itself is
   * paused, its concurrency back from the half-open 1). A probe in flight then reports to a closed
   * breaker, where a failure counts as the first of a new run.
   *
   * @return the breaker before the reset
   */
  public BreakerState reset(EndpointKey key, EndpointSpec spec) {
    Breakers.Change done = breakers.change(key, b -> BreakerState.closed());
    // Forced even when it was closed already: the queue may still hold an open breaker's pause
    // applied by an instance whose view was late.
    limits.apply(key, spec, done.after(), true);
    if (done.moved()) {
      LOG.info("Endpoint {}: circuit breaker reset by an operator", key);
    }
    return done.before();
  }

  /** Whether the endpoint's breaker stops its tasks, as this instance last saw it. */
  boolean stops(EndpointKey key, EndpointSpec spec) {
    return spec.breakerFailures() > 0
        && breakers.seen(key).state().state() != BreakerState.State.CLOSED;
  }

  /** Changes the breaker for every instance; when its state moved, the queue's settings follow. */
  private Breakers.Change change(
      EndpointKey key, EndpointSpec spec, UnaryOperator<BreakerState> change) {
    Breakers.Change done = breakers.change(key, change);
    if (done.moved()) {
      limits.apply(key, spec, done.after(), true);
      LOG.info("Endpoint {}: circuit breaker {}", key, done.after().json());
    }
    return done;
  }
}
