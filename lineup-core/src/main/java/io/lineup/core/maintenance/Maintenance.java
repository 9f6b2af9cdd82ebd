package io.lineup.core.maintenance;

import io.lineup.core.TimeSource;
import io.lineup.core.internal.RedisGateway;
import io.lineup.core.internal.ScriptLibrary;
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

  public Maintenance(RedisGateway gateway, TimeSource time, Duration interval) {
    Duration retention = interval.compareTo(RETENTION_INTERVAL) > 0 ? interval : RETENTION_INTERVAL;
    tasks =
        List.of(
            new QueueSweep("promote", interval, gateway, time, ScriptLibrary.PROMOTE, false),
            new QueueSweep("reclaim", interval, gateway, time, ScriptLibrary.RECLAIM, true),
            new QueueSweep("expire", interval, gateway, time, ScriptLibrary.EXPIRE, false),
            new QueueSweep("retention", retention, gateway, time, ScriptLibrary.RETENTION, false));
  }

  public void start() {
    tasks.forEach(PeriodicTask::start);
  }

  @Override
  public void close() {
    tasks.forEach(PeriodicTask::close);
  }
}
