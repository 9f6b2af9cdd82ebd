package io.lineup.core;

import io.lineup.core.internal.store.RedisStore;
import io.lineup.core.internal.store.ScheduleStore;
import io.lineup.core.internal.store.ScheduleStore.Read;
import io.lineup.core.internal.store.ScheduleStore.State;
import io.lineup.core.internal.store.ScheduleStore.Stored;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.Limits;
import io.lineup.core.model.LineupException;
import io.lineup.core.model.PayloadTooLargeException;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.Schedule;
import io.lineup.core.model.ScheduleNotFoundException;
import io.lineup.core.model.ScheduleRun;
import io.lineup.core.model.ScheduleSpec;
import io.lineup.core.model.ScheduleState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The schedules' engine side: reads and writes their Redis state (every write a compare-and-set,
 * tried again when another engine changed the schedule meanwhile) and runs the driver that fires
 * them ({@link ScheduleDriver}, with the background loops).
 */
final class ScheduleEngine implements AutoCloseable {
  /** Writes tried before giving up on a schedule that keeps changing under them. */
  static final int MAX_WRITE_ATTEMPTS = 50;

  private final RedisStore redis;
  private final ScheduleStore store;
  private final ScheduleDriver driver;
  private final int maxPayloadBytes;

  ScheduleEngine(Engine engine) {
    this.redis = engine.store();
    this.store = redis.schedules();
    this.maxPayloadBytes = engine.options().maxPayloadBytes();
    this.driver =
        engine.options().maintenance()
            ? new ScheduleDriver(store, engine.options().timeSource())
            : null;
    if (driver != null) {
      driver.start();
    }
  }

  Schedule upsert(QueueName queue, ScheduleSpec spec) {
    int size = spec.payload().length;
    if (size > maxPayloadBytes) {
      throw new PayloadTooLargeException("payload", maxPayloadBytes, size);
    }
    redis.register(queue);
    store.index(queue);
    for (int attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      Read read = store.read(queue, spec.name());
      Stored old = read.schedules().isEmpty() ? null : read.schedules().get(0);
      long now = read.nowMs();
      long version = old == null ? 1 : old.state().version() + 1;
      long anchor = old == null ? now : old.state().anchorMs();
      long runs = old == null ? 0 : old.state().runs();
      long last = old == null ? -1 : old.state().lastMs();
      Optional<Schedule> written =
          write(
              queue, old == null ? -1 : old.state().rev(), spec, version, anchor, runs, last, now);
      if (written.isPresent()) {
        return written.get();
      }
    }
    throw new LineupException("Schedule " + spec.name() + " of " + queue + " kept changing");
  }

  Schedule setPaused(QueueName queue, String name, boolean paused) {
    checkName(name);
    for (int attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      Read read = store.read(queue, name);
      if (read.schedules().isEmpty()) {
        throw new ScheduleNotFoundException(queue, name);
      }
      Stored old = read.schedules().get(0);
      if (old.spec().paused() == paused) {
        return view(queue, old);
      }
      State s = old.state();
      Optional<Schedule> written =
          write(
              queue,
              s.rev(),
              old.spec().withPaused(paused),
              s.version(),
              s.anchorMs(),
              s.runs(),
              s.lastMs(),
              read.nowMs());
      if (written.isPresent()) {
        return written.get();
      }
    }
    throw new LineupException("Schedule " + name + " of " + queue + " kept changing");
  }

  /**
   * Writes a spec with the flag and next tick it has from now: ended when its runs are used up or
   * it has no tick left, paused when paused, else active at its first tick from now that is after
   * its last run.
   */
  private Optional<Schedule> write(
      QueueName queue,
      long expectedRev,
      ScheduleSpec spec,
      long version,
      long anchor,
      long runs,
      long last,
      long now) {
    char flag;
    long next = -1;
    if (spec.maxRuns() != null && runs >= spec.maxRuns()) {
      flag = ScheduleStore.ENDED;
    } else if (spec.paused()) {
      flag = ScheduleStore.PAUSED;
    } else {
      Optional<Instant> tick =
          spec.tickAtOrAfter(
              Instant.ofEpochMilli(Math.max(now, last + 1)), Instant.ofEpochMilli(anchor));
      flag = tick.isPresent() ? ScheduleStore.ACTIVE : ScheduleStore.ENDED;
      next = tick.map(Instant::toEpochMilli).orElse(-1L);
    }
    Optional<State> state = store.write(queue, expectedRev, spec, version, anchor, flag, next);
    if (state.isEmpty()) {
      return Optional.empty();
    }
    if (next >= 0) {
      if (driver != null) {
        driver.wake(queue);
      }
      store.announce(queue);
    }
    return Optional.of(view(queue, new Stored(spec, state.get(), next)));
  }

  Optional<Schedule> get(QueueName queue, String name) {
    checkName(name);
    Read read = store.read(queue, name);
    return read.schedules().stream().findFirst().map(s -> view(queue, s));
  }

  List<Schedule> list(QueueName queue) {
    return store.readAll(queue).schedules().stream()
        .map(s -> view(queue, s))
        .sorted(Comparator.comparing(Schedule::name))
        .toList();
  }

  boolean delete(QueueName queue, String name) {
    checkName(name);
    return store.delete(queue, name);
  }

  List<Instant> next(QueueName queue, String name, int n) {
    checkName(name);
    if (n < 1 || n > Limits.MAX_BATCH) {
      throw new InvalidArgumentException(
          "n", "must be between 1 and " + Limits.MAX_BATCH + ", got " + n);
    }
    Stored s = require(queue, name);
    if (s.dueMs() < 0) {
      return List.of();
    }
    ScheduleSpec spec = s.spec();
    List<Instant> ticks =
        spec.nextTicks(
            Instant.ofEpochMilli(s.dueMs()), Instant.ofEpochMilli(s.state().anchorMs()), n);
    if (spec.maxRuns() != null) {
      long left = Math.max(0, spec.maxRuns() - s.state().runs());
      if (ticks.size() > left) {
        return ticks.subList(0, (int) left);
      }
    }
    return ticks;
  }

  List<ScheduleRun> history(QueueName queue, String name) {
    checkName(name);
    int size = require(queue, name).spec().historySize();
    List<ScheduleRun> runs = new ArrayList<>();
    for (String entry : store.history(queue, name)) {
      if (runs.size() == size) {
        break;
      }
      String[] parts = entry.split(" ", 4);
      runs.add(
          new ScheduleRun(
              Instant.ofEpochMilli(Long.parseLong(parts[0])),
              parts[3],
              Instant.ofEpochMilli(Long.parseLong(parts[1])),
              switch (parts[2]) {
                case "P" -> ScheduleRun.Outcome.PUBLISHED;
                case "D" -> ScheduleRun.Outcome.DUPLICATE;
                default -> ScheduleRun.Outcome.SKIPPED_MISSED;
              }));
    }
    return runs;
  }

  List<QueueName> queues() {
    return store.scheduledQueues();
  }

  private Stored require(QueueName queue, String name) {
    Read read = store.read(queue, name);
    if (read.schedules().isEmpty()) {
      throw new ScheduleNotFoundException(queue, name);
    }
    return read.schedules().get(0);
  }

  /** A name no schedule can have is refused rather than looked up. */
  private static void checkName(String name) {
    if (name == null || name.isEmpty() || name.length() > ScheduleSpec.MAX_NAME_LENGTH) {
      throw new InvalidArgumentException(
          "name", "must be 1 to " + ScheduleSpec.MAX_NAME_LENGTH + " characters");
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (!(Character.isLetterOrDigit(c) && c < 128)
          && c != '.'
          && c != '_'
          && c != '-'
          && c != ':') {
        throw new InvalidArgumentException(
            "name", "may only contain A-Z a-z 0-9 . _ - : but was '" + name + "'");
      }
    }
  }

  static Schedule view(QueueName queue, Stored stored) {
    State s = stored.state();
    ScheduleState state =
        switch (s.flag()) {
          case ScheduleStore.ACTIVE -> ScheduleState.ACTIVE;
          case ScheduleStore.PAUSED -> ScheduleState.PAUSED;
          default -> ScheduleState.ENDED;
        };
    return new Schedule(
        queue,
        stored.spec(),
        stored.dueMs() < 0 ? Optional.empty() : Optional.of(Instant.ofEpochMilli(stored.dueMs())),
        s.runs(),
        s.lastMs() < 0 ? Optional.empty() : Optional.of(Instant.ofEpochMilli(s.lastMs())),
        state,
        s.version());
  }

  /**
   * The id of a tick's job: {@code sched:NAME:TICKMS}. A name too long for that to fit the {@value
   * Limits#MAX_ID_LENGTH} characters of an id is cut to its first 80 characters and a hash of the
   * whole name ({@code sched:FIRST80~HASH:TICKMS}), still one id per name and tick.
   */
  static String jobId(String name, long tickMs) {
    String id = "sched:" + name + ":" + tickMs;
    if (id.length() <= Limits.MAX_ID_LENGTH) {
      return id;
    }
    long hash = 0xcbf29ce484222325L;
    for (int i = 0; i < name.length(); i++) {
      hash = (hash ^ name.charAt(i)) * 0x100000001b3L;
    }
    return "sched:" + name.substring(0, 80) + "~" + Long.toHexString(hash) + ":" + tickMs;
  }

  @Override
  public void close() {
    if (driver != null) {
      driver.close();
    }
  }
}
