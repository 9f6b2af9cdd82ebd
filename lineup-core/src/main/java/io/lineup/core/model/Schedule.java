package io.lineup.core.model;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A schedule as it stands in Redis: its spec and where it is.
 *
 * @param queue the queue its jobs are published to
 * @param spec what it was last upserted with (its {@link ScheduleSpec#paused()} follows pause and
 *     resume)
 * @param nextTick when its next job is due (before jitter); empty when paused or ended
 * @param runs how many jobs it published so far (missed ticks skipped without a job do not count)
 * @param lastTick the tick of its latest run, empty before the first
 * @param state active, paused or ended
 * @param version how many times it was upserted (1 after the first upsert); pause and resume do not
 *     count
 */
public record Schedule(
    QueueName queue,
    ScheduleSpec spec,
    Optional<Instant> nextTick,
    long runs,
    Optional<Instant> lastTick,
    ScheduleState state,
    long version) {
  public Schedule {
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(nextTick, "nextTick");
    Objects.requireNonNull(lastTick, "lastTick");
    Objects.requireNonNull(state, "state");
  }

  /** The schedule's name (its spec's). */
  public String name() {
    return spec.name();
  }
}
