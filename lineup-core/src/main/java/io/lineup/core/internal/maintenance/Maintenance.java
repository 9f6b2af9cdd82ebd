package io.lineup.core.internal.maintenance;

import io.lineup.core.internal.store.RedisStore;
import io.lineup.core.internal.store.RedisStore.Sweep;
import java.time.Duration;
import java.util.List;

/**
 * The four background loops: promote due delayed jobs, reclaim expired leases, expire jobs past
 * their TTL, drop finished records past retention. Consumers do the first two themselves when they
 * lease; the loops keep counts, positions and wake-ups right when nobody leases.
 */
public final class Maintenance implements AutoCloseable {
  /** Retention needs no hurry: it runs at most every this often. */
  public static final Duration RETENTION_INTERVAL = Duration.ofSeconds(5);

  private final List<PeriodicTask> tasks;

  /**
   * @param store where the queues live
   * @param interval the pause between two rounds of promote, reclaim and expire
   */
  public Maintenance(RedisStore store, Duration interval) {
    Duration retention = interval.compareTo(RETENTION_INTERVAL) > 0 ? interval : RETENTION_INTERVAL;
    tasks =
        List.of(
            new QueueSweep(interval, store, Sweep.PROMOTE),
            new QueueSweep(interval, store, Sweep.RECLAIM),
            new QueueSweep(interval, store, Sweep.EXPIRE),
            new QueueSweep(retention, store, Sweep.RETENTION));
  }

  public void start() {
    tasks.forEach(PeriodicTask::start);
  }

  @Override
  public void close() {
    tasks.forEach(PeriodicTask::close);
  }
}
