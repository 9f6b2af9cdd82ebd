package io.lineup.core;

import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.Limits;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.RedisUnavailableException;
import io.lineup.core.model.Schedule;
import io.lineup.core.model.ScheduleNotFoundException;
import io.lineup.core.model.ScheduleRun;
import io.lineup.core.model.ScheduleSpec;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Recurring schedules: named, editable specs that publish one job per tick to their queue, however
 * many engines run. Get it with {@link Lineup#schedules()}.
 *
 * <p>Which engine publishes a tick's job is decided inside Redis, on the engine's clock (the Redis
 * server's by default): every engine runs a driver that fires due schedules with a script that
 * publishes the tick's job only while the schedule still stands at that tick and version, and moves
 * it to its next tick in the same call. The job's id is derived from the schedule's name and the
 * tick ({@code sched:NAME:TICKMS}), so a tick never makes two jobs. See docs/schedules.md.
 *
 * <p>Only engines with background loops on ({@link LineupOptions#maintenance()}, the default) run a
 * driver; one such engine per Redis is enough for every schedule to tick.
 *
 * <p>Thread-safe. Every method may throw {@link RedisUnavailableException} when Redis cannot be
 * reached; a missing schedule throws {@link ScheduleNotFoundException} where it says so.
 */
public final class Schedules {
  private final ScheduleEngine engine;

  Schedules(ScheduleEngine engine) {
    this.engine = engine;
  }

  /**
   * Creates the schedule, or changes it in place: a changed expression, interval or job takes
   * effect from the next tick (a tick already published stays published), and its runs and history
   * are kept. Its version goes up by one.
   *
   * @return the schedule as it stands after the upsert
   * @throws InvalidArgumentException when the queue or spec is null
   * @throws io.lineup.core.model.PayloadTooLargeException when the job's payload is over the
   *     engine's {@link LineupOptions#maxPayloadBytes()} (nothing is written)
   */
  public Schedule upsert(QueueName queue, ScheduleSpec spec) {
    if (queue == null) {
      throw new InvalidArgumentException("queue", "is required");
    }
    if (spec == null) {
      throw new InvalidArgumentException("spec", "is required");
    }
    return engine.upsert(queue, spec);
  }

  /** The schedule, or empty when the queue has none of that name. */
  public Optional<Schedule> get(QueueName queue, String name) {
    return engine.get(queue, name);
  }

  /** The queue's schedules, by name. */
  public List<Schedule> list(QueueName queue) {
    return engine.list(queue);
  }

  /**
   * Pauses a schedule: no job until {@link #resume}. Pausing a paused schedule changes nothing.
   *
   * @return the schedule as it stands after
   * @throws ScheduleNotFoundException when the queue has no schedule of that name
   */
  public Schedule pause(QueueName queue, String name) {
    return engine.setPaused(queue, name, true);
  }

  /**
   * Resumes a paused schedule: its next job is at its first tick from now (the ticks while it was
   * paused are not published, whatever its {@link io.lineup.core.model.MissedTicks} policy).
   * Resuming an active schedule changes nothing.
   *
   * @return the schedule as it stands after
   * @throws ScheduleNotFoundException when the queue has no schedule of that name
   */
  public Schedule resume(QueueName queue, String name) {
    return engine.setPaused(queue, name, false);
  }

  /**
   * Deletes a schedule and its history; jobs it published stay.
   *
   * @return whether there was one
   */
  public boolean delete(QueueName queue, String name) {
    return engine.delete(queue, name);
  }

  /**
   * The schedule's next {@code n} ticks from its next due tick, without publishing anything (fewer
   * when it ends sooner; none when paused or ended). The run limit counts the runs it has made.
   *
   * @param n 1 to {@value Limits#MAX_BATCH}
   * @throws ScheduleNotFoundException when the queue has no schedule of that name
   * @throws InvalidArgumentException when n is out of range
   */
  public List<Instant> next(QueueName queue, String name, int n) {
    return engine.next(queue, name, n);
  }

  /**
   * The next {@code n} ticks of a spec at or after {@code from}, computed without Redis: what an
   * upsert at {@code from} would tick at. An interval schedule without a start time counts from
   * {@code from}; {@link ScheduleSpec#maxRuns()} caps the count; a paused spec's ticks are given as
   * if it ran.
   *
   * @param n 1 to {@value Limits#MAX_BATCH}
   * @throws InvalidArgumentException when n is out of range or an argument is null
   */
  public static List<Instant> next(ScheduleSpec spec, Instant from, int n) {
    if (spec == null) {
      throw new InvalidArgumentException("spec", "is required");
    }
    if (from == null) {
      throw new InvalidArgumentException("from", "is required");
    }
    List<Instant> ticks = spec.nextTicks(from, n);
    if (spec.maxRuns() != null && ticks.size() > spec.maxRuns()) {
      return ticks.subList(0, (int) (long) spec.maxRuns());
    }
    return ticks;
  }

  /**
   * The schedule's latest runs, newest first: at most its {@link ScheduleSpec#historySize()}.
   *
   * @throws ScheduleNotFoundException when the queue has no schedule of that name
   */
  public List<ScheduleRun> history(QueueName queue, String name) {
    return engine.history(queue, name);
  }

  /** Every queue that has had a schedule (a queue whose schedules were all deleted may remain). */
  public List<QueueName> queues() {
    return engine.queues();
  }
}
