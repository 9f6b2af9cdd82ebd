package io.lineup.server.metrics;

import io.lineup.core.Lineup;
import io.lineup.core.model.KeyCounts;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per-queue meters read from the engine's queue statistics at scrape time: lifetime counters by
 * event ({@code lineup_queue_jobs_total}), depth by state ({@code lineup_queue_depth}) and the
 * measured service rate, and for fair queues the fairness keys with jobs waiting and leased ({@code
 * lineup_queue_keys_waiting}, {@code lineup_queue_keys_leased}; one more Redis call per fair queue
 * and scrape, whatever the number of keys). The engine's counters are cluster-wide, so every
 * instance reports the same values: aggregate them across instances with {@code max}, not {@code
 * sum}.
 */
final class QueueGauges {
  /** Most queues read per scrape (the first by name). */
  static final int MAX_QUEUES = 1000;

  /** The engine counters exported, by event name. */
  static final List<String> EVENTS =
      List.of(
          "published",
          "leased",
          "acked",
          "retried",
          "dead",
          "expired",
          "cancelled",
          "respawned",
          "purged",
          "deleted");

  /** The states whose depth is exported. */
  static final List<String> STATES = List.of("ready", "delayed", "leased", "dead", "finished");

  private static final Logger LOG = LoggerFactory.getLogger(QueueGauges.class);

  private final MeterRegistry registry;
  private final Map<QueueName, Snapshot> snapshots = new ConcurrentHashMap<>();
  private volatile boolean redisReachable = true;

  /** The latest reading of one queue; meters read it. */
  static final class Snapshot {
    volatile QueueStats stats;

    /** The latest key counts of a fair queue; null until it was read fair, and once it is not. */
    volatile KeyCounts keys;

    /**
     * Whether the key gauges of the queue are registered (on its first reading as fair). Two
     * scrapes at once may both register them: Micrometer answers the second with the first's.
     */
    volatile boolean keyGauges;

    double keysWaiting() {
      KeyCounts k = keys;
      return k == null ? 0 : k.keysWaiting();
    }

    double keysLeased() {
      KeyCounts k = keys;
      return k == null ? 0 : k.keysLeased();
    }

    double counter(String event) {
      QueueStats current = stats;
      Long value = current == null ? null : current.counters().get(event);
      return value == null ? 0 : value;
    }

    double depth(String state) {
      QueueStats s = stats;
      if (s == null) {
        return 0;
      }
      return switch (state) {
        case "ready" -> s.ready();
        case "delayed" -> s.delayed();
        case "leased" -> s.leased();
        case "dead" -> s.dead();
        default -> s.finished();
      };
    }

    double serviceRate() {
      QueueStats s = stats;
      return s == null ? 0 : s.serviceRate();
    }
  }

  QueueGauges(MeterRegistry registry) {
    this.registry = registry;
    Gauge.builder("lineup.redis.up", this, gauges -> gauges.redisReachable ? 1 : 0)
        .description("1 when the last scrape could read the queues from Redis, else 0")
        .register(registry);
  }

  /** Reads every queue's statistics (at most {@link #MAX_QUEUES}); keeps old values on failure. */
  void refresh(Lineup lineup) {
    try {
      List<QueueName> queues = lineup.queues();
      for (QueueName queue : queues.subList(0, Math.min(MAX_QUEUES, queues.size()))) {
        Snapshot snapshot = snapshotOf(queue);
        snapshot.stats = lineup.stats(queue);
        readKeys(lineup, queue, snapshot);
      }
      redisReachable = true;
    } catch (RuntimeException e) {
      redisReachable = false;
      LOG.warn("Could not read queue statistics for /metrics: {}", e.getMessage());
    }
  }

  /**
   * Reads a fair queue's key counts: one call that answers both counts (and the one key with most
   * jobs waiting, which is not used), so a scrape costs the same with ten keys or a million.
   */
  private void readKeys(Lineup lineup, QueueName queue, Snapshot snapshot) {
    if (!Boolean.TRUE.equals(snapshot.stats.settings().fair())) {
      snapshot.keys = null;
      return;
    }
    snapshot.keys = lineup.fairness().top(queue, KeyCounts.By.WAITING, 1);
    if (!snapshot.keyGauges) {
      snapshot.keyGauges = true;
      String name = queue.toString();
      Gauge.builder("lineup.queue.keys.waiting", snapshot, Snapshot::keysWaiting)
          .description("Fair queue: fairness keys with jobs waiting (ready, delayed or paused)")
          .tags("queue", name)
          .register(registry);
      Gauge.builder("lineup.queue.keys.leased", snapshot, Snapshot::keysLeased)
          .description("Fair queue: fairness keys with jobs leased")
          .tags("queue", name)
          .register(registry);
    }
  }

  private Snapshot snapshotOf(QueueName queue) {
    return snapshots.computeIfAbsent(queue, this::register);
  }

  private Snapshot register(QueueName queue) {
    Snapshot snapshot = new Snapshot();
    String name = queue.toString();
    for (String event : EVENTS) {
      FunctionCounter.builder("lineup.queue.jobs", snapshot, s -> s.counter(event))
          .description("Jobs of the queue by lifetime event, cluster-wide (all instances)")
          .tags("queue", name, "event", event)
          .register(registry);
    }
    for (String state : STATES) {
      Gauge.builder("lineup.queue.depth", snapshot, s -> s.depth(state))
          .description("Jobs of the queue in each state")
          .tags("queue", name, "state", state)
          .register(registry);
    }
    Gauge.builder("lineup.queue.service.rate", snapshot, Snapshot::serviceRate)
        .description(
            "Estimated jobs served per second (completions of the recent seconds, capped by the limits)")
        .tags("queue", name)
        .register(registry);
    return snapshot;
  }
}
