package io.lineup.dispatch;

import io.lineup.core.Lineup;
import io.lineup.core.model.Eta;
import io.lineup.core.model.EtaEstimator;
import io.lineup.core.model.QueueName;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ETA a submit answers: the engine's estimator of the endpoint's line ({@link
 * Lineup#etaEstimator}) asked for the new task's position. An estimator is read at most every
 * {@value #MAX_AGE_MS} ms per endpoint and shared by the submits of that moment, so a busy endpoint
 * costs one read of its statistics per {@value #MAX_AGE_MS} ms instead of one read of the task per
 * submit. Its measured rate changes by the second, so the ETA is as good as a fresh one.
 */
final class SubmitEtas {
  /** Longest an estimator is used after it was read, in milliseconds. */
  static final long MAX_AGE_MS = 100;

  private final Lineup lineup;
  private final Map<QueueName, Reading> readings = new ConcurrentHashMap<>();
  private final Set<QueueName> reading = ConcurrentHashMap.newKeySet();

  /** An estimator and when it was read ({@link System#nanoTime()} before the read). */
  private record Reading(EtaEstimator estimator, long readAtNanos) {}

  SubmitEtas(Lineup lineup) {
    this.lineup = lineup;
  }

  /**
   * The ETA of the task at {@code position} in the endpoint's ready line; empty when it is not in
   * the ready line (position -1) or the engine has no estimate (paused, nothing measured).
   *
   * @throws io.lineup.core.model.RedisUnavailableException when the estimator must be read and
   *     Redis does not answer
   */
  Optional<Eta> eta(QueueName queue, long position) {
    if (position < 0) {
      return Optional.empty();
    }
    long now = System.nanoTime();
    Reading last = readings.get(queue);
    boolean stale = last == null || now - last.readAtNanos() > MAX_AGE_MS * 1_000_000L;
    // One submit reads a stale estimator again; the others of that moment use the old one.
    if (last == null || (stale && reading.add(queue))) {
      try {
        last = new Reading(lineup.etaEstimator(queue), now);
        readings.put(queue, last);
      } finally {
        reading.remove(queue);
      }
    }
    return last.estimator().eta(position);
  }

  /** Forgets an endpoint's estimator: its settings changed (paused, limits), or it is gone. */
  void forget(QueueName queue) {
    readings.remove(queue);
  }
}
