package io.lineup.core.internal.maintenance;

import io.lineup.core.internal.store.RedisStore;
import java.time.Duration;

/**
 * A background loop that runs one bounded sweep on every registered queue each round, again on a
 * queue while a call hit its limit. Every instance may run it at once: each call is atomic.
 */
public final class QueueSweep extends PeriodicTask {
  /** Most jobs one script call handles. */
  public static final int BATCH = 1000;

  /** Most calls per queue per round, so one busy queue cannot starve the others. */
  public static final int MAX_CALLS_PER_ROUND = 20;

  private final RedisStore store;
  private final RedisStore.Sweep sweep;

  /**
   * @param interval the pause between two rounds
   * @param store where the queues live
   * @param sweep what a round does to each queue
   */
  public QueueSweep(Duration interval, RedisStore store, RedisStore.Sweep sweep) {
    super(sweep.name().toLowerCase(java.util.Locale.ROOT), interval);
    this.store = store;
    this.sweep = sweep;
  }

  @Override
  protected void runOnce() {
    store.sweepEveryQueue(sweep, BATCH, MAX_CALLS_PER_ROUND);
  }
}
