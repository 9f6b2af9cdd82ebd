package io.lineup.server.metrics;

import io.lineup.core.model.QueueName;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When this server handed out each lease (by lease token), so an ack or nack through the same
 * server can measure the processing time. Bounded: at most {@value #MAX_TRACKED} leases are tracked
 * and entries older than {@value #MAX_AGE_MS} ms are dropped; acks through another instance are not
 * measured.
 */
final class LeaseClock {
  /** Most leases tracked at once. */
  static final int MAX_TRACKED = 100_000;

  /** Oldest lease kept, in ms (the longest time-to-run, 24 h, plus an hour). */
  static final long MAX_AGE_MS = 25L * 3600 * 1000;

  record Started(QueueName queue, long nanos) {}

  private final Map<String, Started> started = new ConcurrentHashMap<>();

  /** Notes a lease handed out now. */
  void start(String token, QueueName queue, long nowNanos) {
    if (started.size() >= MAX_TRACKED) {
      prune(nowNanos);
      if (started.size() >= MAX_TRACKED) {
        return;
      }
    }
    started.put(token, new Started(queue, nowNanos));
  }

  /** The lease's start, forgotten from now on; null when unknown here. */
  Started finish(String token) {
    return started.remove(token);
  }

  /** Drops leases older than {@link #MAX_AGE_MS}. */
  void prune(long nowNanos) {
    long oldest = nowNanos - MAX_AGE_MS * 1_000_000;
    started.values().removeIf(entry -> entry.nanos() - oldest < 0);
  }
}
