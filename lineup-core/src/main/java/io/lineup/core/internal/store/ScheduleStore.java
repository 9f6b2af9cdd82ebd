package io.lineup.core.internal.store;

import io.lineup.core.model.QueueName;
import io.lineup.core.model.ScheduleSpec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The schedules' Redis state: per queue a spec hash, a state hash, a due set and a history list per
 * schedule (all in the queue's slot), and the set of queues with schedules. Every write is one
 * script call that checks the schedule still stands where its caller read it; the caller works out
 * ticks (cron expressions are read in Java), the scripts decide.
 */
public final class ScheduleStore {
  /** A schedule's state flag: ticking. */
  public static final char ACTIVE = 'a';

  /** A schedule's state flag: paused. */
  public static final char PAUSED = 'p';

  /** A schedule's state flag: past its end time or its most runs. */
  public static final char ENDED = 'e';

  /** Code of a fired entry in {@link FireReply#codes()}. */
  public static final int FIRED = 1;

  /** Code of an entry that was not where its caller read it: nothing written. */
  public static final int MOVED = 0;

  /** Code of an entry whose tick is still ahead of the script's clock: nothing written. */
  public static final int EARLY = 3;

  private final RedisGateway gateway;
  private final Supplier<String> scriptTime;

  ScheduleStore(RedisGateway gateway, Supplier<String> scriptTime) {
    this.gateway = gateway;
    this.scriptTime = scriptTime;
  }

  /**
   * A schedule's state as {@code lib/schedule.lua} keeps it.
   *
   * @param rev changes so far (every write), for compare-and-set
   * @param version upserts so far
   * @param runs jobs published so far
   * @param lastMs the tick of the latest run (epoch ms), -1 before the first
   * @param anchorMs what an interval schedule counts its ticks from (epoch ms)
   * @param flag {@link #ACTIVE}, {@link #PAUSED} or {@link #ENDED}
   */
  public record State(long rev, long version, long runs, long lastMs, long anchorMs, char flag) {
    static State parse(String text) {
      String[] parts = text.split(" ");
      if (parts.length != 6 || parts[5].length() != 1) {
        throw new IllegalStateException("A stored schedule state is malformed: " + text);
      }
      return new State(
          Long.parseLong(parts[0]),
          Long.parseLong(parts[1]),
          Long.parseLong(parts[2]),
          Long.parseLong(parts[3]),
          Long.parseLong(parts[4]),
          parts[5].charAt(0));
    }
  }

  /**
   * A schedule as read.
   *
   * @param spec its spec
   * @param state its state
   * @param dueMs its due tick (epoch ms), -1 when it has none (paused, ended)
   */
  public record Stored(ScheduleSpec spec, State state, long dueMs) {}

  /**
   * A read.
   *
   * @param nowMs the clock's time (epoch ms) when read
   * @param earliestMs the queue's earliest due tick (epoch ms), -1 when none
   * @param schedules what was found
   */
  public record Read(long nowMs, long earliestMs, List<Stored> schedules) {}

  /** Every schedule of a queue. */
  public Read readAll(QueueName queue) {
    return read(queue, new Args(2).add(scriptTime.get()).add("all"));
  }

  /** One schedule (the read's list is empty when there is none). */
  public Read read(QueueName queue, String name) {
    return read(queue, new Args(3).add(scriptTime.get()).add("names").add(name));
  }

  /** Up to {@code limit} schedules due by now + {@code horizonMs}, earliest first. */
  public Read readDue(QueueName queue, long horizonMs, int limit) {
    return read(
        queue, new Args(4).add(scriptTime.get()).add("due").add(horizonMs).add((long) limit));
  }

  private Read read(QueueName queue, Args args) {
    List<Object> reply =
        Replies.asList(gateway.run(ScriptLibrary.SCHEDULE_READ, keys(queue), args.toArray()));
    List<Stored> found = new ArrayList<>((reply.size() - 2) / 4);
    for (int i = 2; i + 3 < reply.size(); i += 4) {
      String due = Replies.asString(reply.get(i + 3));
      found.add(
          new Stored(
              ScheduleCodec.decode(Replies.asBytes(reply.get(i + 1))),
              State.parse(Replies.asString(reply.get(i + 2))),
              due.isEmpty() ? -1 : (long) Double.parseDouble(due)));
    }
    return new Read(Replies.asLong(reply.get(0)), Replies.asLong(reply.get(1)), found);
  }

  /**
   * Writes a schedule's spec and state while its state is at {@code expectedRev}.
   *
   * @param expectedRev the rev read, or -1 when the schedule must not exist yet
   * @param nextMs its next tick (epoch ms), -1 for none (the flag is then not {@link #ACTIVE})
   * @return the state written, or empty when the schedule moved meanwhile (nothing written)
   */
  public Optional<State> write(
      QueueName queue,
      long expectedRev,
      ScheduleSpec spec,
      long version,
      long anchorMs,
      char flag,
      long nextMs) {
    Args args =
        new Args(7)
            .add(spec.name())
            .add(expectedRev < 0 ? "" : Long.toString(expectedRev))
            .add(ScheduleCodec.encode(spec))
            .add(version)
            .add(anchorMs)
            .add(String.valueOf(flag))
            .add(nextMs);
    List<Object> reply =
        Replies.asList(gateway.run(ScriptLibrary.SCHEDULE_WRITE, keys(queue), args.toArray()));
    if (Replies.asLong(reply.get(0)) != 1) {
      return Optional.empty();
    }
    return Optional.of(State.parse(Replies.asString(reply.get(1))));
  }

  /** Deletes a schedule and its history; whether there was one. */
  public boolean delete(QueueName queue, String name) {
    byte[][] keys = {
      KeySpace.scheduleDue(queue),
      KeySpace.scheduleSpecs(queue),
      KeySpace.scheduleStates(queue),
      KeySpace.scheduleHistory(queue, name)
    };
    List<Object> reply =
        Replies.asList(
            gateway.run(ScriptLibrary.SCHEDULE_DELETE, keys, new Args(1).add(name).toArray()));
    return Replies.asLong(reply.get(0)) == 1;
  }

  /**
   * A schedule's history entries as stored, newest first: {@code "tick at outcome jobId"}, the
   * times in epoch ms, the outcome {@code P} published, {@code S} skipped, {@code D} duplicate.
   */
  public List<String> history(QueueName queue, String name) {
    return gateway
        .await(gateway.commands().lrange(KeySpace.scheduleHistory(queue, name), 0, -1))
        .stream()
        .map(b -> new String(b, StandardCharsets.UTF_8))
        .toList();
  }

  /** Adds a queue to the set of queues with schedules (one SADD). */
  public void index(QueueName queue) {
    gateway.await(
        gateway.commands().sadd(KeySpace.SCHEDULED_QUEUES, utf8(KeySpace.registryMember(queue))));
  }

  /** Every queue that has had a schedule, sorted. */
  public List<QueueName> scheduledQueues() {
    return gateway.await(gateway.commands().smembers(KeySpace.SCHEDULED_QUEUES)).stream()
        .map(b -> new String(b, StandardCharsets.UTF_8))
        .sorted()
        .map(QueueName::parse)
        .toList();
  }

  /**
   * One tick's job to publish, or a tick skipped.
   *
   * @param id the job's id
   * @param tickMs the tick (epoch ms)
   * @param runAtMs when the job is due (epoch ms: the tick plus its jitter)
   */
  public record Tick(String id, long tickMs, long runAtMs) {}

  /**
   * What to do for one due schedule.
   *
   * @param read the schedule as read (its rev and due tick are checked)
   * @param nextMs its next tick after this (epoch ms), -1 when it ends
   * @param jobs the jobs to publish, oldest first
   * @param skipped the ticks skipped, oldest first (history only)
   */
  public record Fire(Stored read, long nextMs, List<Tick> jobs, List<Tick> skipped) {}

  /**
   * A fire's answer.
   *
   * @param nowMs the script's clock (epoch ms)
   * @param earliestMs the queue's earliest due tick after the call (epoch ms), -1 when none
   * @param codes per fire: {@link #FIRED}, {@link #MOVED} or {@link #EARLY}
   * @param published per fire: the jobs it published
   */
  public record FireReply(long nowMs, long earliestMs, int[] codes, int[] published) {}

  /** Fires due schedules of one queue in one script call ({@code schedule_fire.lua}). */
  public FireReply fire(QueueName queue, List<Fire> fires) {
    byte[][] queueKeys = KeySpace.queueKeys(queue);
    byte[][] keys = new byte[queueKeys.length + 2 + fires.size()][];
    System.arraycopy(queueKeys, 0, keys, 0, queueKeys.length);
    keys[queueKeys.length] = KeySpace.scheduleDue(queue);
    keys[queueKeys.length + 1] = KeySpace.scheduleStates(queue);
    Args args = new Args(2 + fires.size() * 16).add(scriptTime.get()).add((long) fires.size());
    for (int i = 0; i < fires.size(); i++) {
      Fire fire = fires.get(i);
      ScheduleSpec spec = fire.read().spec();
      keys[queueKeys.length + 2 + i] = KeySpace.scheduleHistory(queue, spec.name());
      args.add(spec.name())
          .add(fire.read().state().rev())
          .add(fire.read().dueMs())
          .add(fire.nextMs())
          .add(spec.maxRuns() == null ? -1 : spec.maxRuns())
          .add((long) spec.historySize())
          .add(spec.payload())
          .add((long) spec.priority())
          .add(spec.maxAttempts() == null ? 0 : spec.maxAttempts())
          .add(spec.timeToRun() == null ? 0 : spec.timeToRun().toMillis())
          .add(spec.ttl() == null ? 0 : Math.max(1, spec.ttl().toMillis()))
          .add((long) fire.jobs().size())
          .add((long) fire.skipped().size());
      for (Tick job : fire.jobs()) {
        args.add(job.id()).add(job.tickMs()).add(job.runAtMs());
      }
      for (Tick skipped : fire.skipped()) {
        args.add(skipped.id()).add(skipped.tickMs());
      }
    }
    List<Object> reply =
        Replies.asList(gateway.run(ScriptLibrary.SCHEDULE_FIRE, keys, args.toArray()));
    int[] codes = new int[fires.size()];
    int[] published = new int[fires.size()];
    for (int i = 0; i < fires.size(); i++) {
      codes[i] = (int) Replies.asLong(reply.get(2 + i * 2));
      published[i] = (int) Replies.asLong(reply.get(3 + i * 2));
    }
    return new FireReply(
        Replies.asLong(reply.get(0)), Replies.asLong(reply.get(1)), codes, published);
  }

  private static byte[][] keys(QueueName queue) {
    return new byte[][] {
      KeySpace.scheduleDue(queue), KeySpace.scheduleSpecs(queue), KeySpace.scheduleStates(queue)
    };
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
