package io.lineup.core.internal.store;

import io.lineup.core.model.QueueName;
import io.lineup.core.model.ScheduleSpec;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
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
   * @param nowMicros the clock's time (epoch µs) when read: the Redis clock to the µs, or a test
   *     clock's ms
   * @param earliestMs the queue's earliest due tick (epoch ms), -1 when none
   * @param schedules what was found
   */
  public record Read(long nowMicros, long earliestMs, List<Stored> schedules) {
    /** The clock's time in whole ms, as the scripts compare it. */
    public long nowMs() {
      return Math.floorDiv(nowMicros, 1000L);
    }
  }

  /**
   * Waits for a reply of {@link #fireAsync} within the command timeout.
   *
   * @throws io.lineup.core.model.RedisUnavailableException when Redis does not answer in time
   */
  public <T> T await(CompletableFuture<T> reply) {
    return gateway.await(reply);
  }

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
    return ScriptReplies.scheduleRead(
        gateway.run(ScriptLibrary.SCHEDULE_READ, keys(queue), args.toArray()));
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
    return ScriptReplies.scheduleWrite(
        gateway.run(ScriptLibrary.SCHEDULE_WRITE, keys(queue), args.toArray()));
  }

  /** Deletes a schedule and its history; whether there was one. */
  public boolean delete(QueueName queue, String name) {
    byte[][] keys = {
      KeySpace.scheduleDue(queue),
      KeySpace.scheduleSpecs(queue),
      KeySpace.scheduleStates(queue),
      KeySpace.scheduleHistory(queue, name)
    };
    return ScriptReplies.scheduleDelete(
        gateway.run(ScriptLibrary.SCHEDULE_DELETE, keys, new Args(1).add(name).toArray()));
  }

  /**
   * A schedule's history entries as stored, newest first (up to twice its history size: the fire
   * script cuts it back to its size only then): {@code "tick at outcome jobId"}, the times in epoch
   * ms, the outcome {@code P} published, {@code S} skipped, {@code D} duplicate.
   */
  public List<String> history(QueueName queue, String name) {
    return gateway
        .await(gateway.commands().lrange(KeySpace.scheduleHistory(queue, name), 0, -1))
        .stream()
        .map(b -> new String(b, StandardCharsets.UTF_8))
        .toList();
  }

  /**
   * Tells every engine's schedule driver that a schedule of the queue changed (a pub/sub message,
   * not waited for; a lost one is made up by the drivers' periodic reads).
   */
  public void announce(QueueName queue) {
    gateway.publishWithoutWaiting(KeySpace.SCHEDULE_WAKES, utf8(KeySpace.registryMember(queue)));
  }

  /**
   * Calls {@code onChange} with the queue of every schedule change announced by any engine ({@link
   * #announce}), on the client's event loop (it must be quick).
   *
   * @return closes the subscription
   * @throws io.lineup.core.model.RedisUnavailableException when Redis cannot be reached
   */
  public AutoCloseable onAnnounced(Consumer<QueueName> onChange) {
    return gateway.subscribe(
        KeySpace.SCHEDULE_WAKES,
        message -> {
          try {
            onChange.accept(QueueName.parse(new String(message, StandardCharsets.UTF_8)));
          } catch (RuntimeException malformed) {
            // Not a queue name: not an engine's message; nothing to wake.
          }
        });
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
   * What to do for one due schedule, with its part of the fire call's arguments made when it is
   * planned (ahead of the tick), so that the call at the tick only joins them.
   *
   * @param read the schedule as read (its rev is checked)
   * @param nextMs its next tick after this (epoch ms), -1 when it ends
   * @param jobs the jobs to publish, oldest first
   * @param skipped the ticks skipped, oldest first (history only)
   * @param history the key of its history list
   * @param args its values of the fire call's ARGV
   */
  public record Fire(
      Stored read,
      long nextMs,
      List<Tick> jobs,
      List<Tick> skipped,
      byte[] history,
      byte[][] args) {
    /** A fire with its keys and arguments made. */
    public static Fire of(
        QueueName queue, Stored read, long nextMs, List<Tick> jobs, List<Tick> skipped) {
      ScheduleSpec spec = read.spec();
      Args args =
          new Args(10 + jobs.size() * 3 + skipped.size() * 2)
              .add(spec.name())
              .add(read.state().rev())
              .add(read.dueMs())
              .add(nextMs)
              .add(spec.maxRuns() == null ? -1 : spec.maxRuns())
              .add((long) spec.historySize())
              .add(spec.payload())
              .add(jobOptions(spec))
              .add((long) jobs.size())
              .add((long) skipped.size());
      for (Tick job : jobs) {
        args.add(job.id()).add(job.tickMs()).add(job.runAtMs());
      }
      for (Tick tick : skipped) {
        args.add(tick.id()).add(tick.tickMs());
      }
      return new Fire(
          read,
          nextMs,
          jobs,
          skipped,
          KeySpace.scheduleHistory(queue, spec.name()),
          args.toArray());
    }
  }

  /**
   * A fire's answer.
   *
   * @param nowMicros the script's clock (epoch µs; a test clock's ms times 1000)
   * @param earliestMs the queue's earliest due tick after the call (epoch ms), -1 when none
   * @param codes per fire: {@link #FIRED}, {@link #MOVED} or {@link #EARLY}
   * @param published per fire: the jobs it published
   */
  public record FireReply(long nowMicros, long earliestMs, int[] codes, int[] published) {}

  /**
   * Fires due schedules of one queue in one script call ({@code schedule_fire.lua}).
   *
   * @param leadMs a tick up to this much after the script's clock is fired now, its job due at its
   *     tick; a later one is early
   */
  public FireReply fire(QueueName queue, List<Fire> fires, long leadMs) {
    return gateway.await(fireAsync(queue, fires, leadMs));
  }

  /**
   * {@link #fire} without waiting: calls for several batches go out together, and Redis runs them
   * one after the other. The future fails as {@link RedisGateway#runAsync} says.
   */
  public CompletableFuture<FireReply> fireAsync(QueueName queue, List<Fire> fires, long leadMs) {
    byte[][] queueKeys = KeySpace.queueKeys(queue);
    byte[][] keys = new byte[queueKeys.length + 2 + fires.size()][];
    System.arraycopy(queueKeys, 0, keys, 0, queueKeys.length);
    keys[queueKeys.length] = KeySpace.scheduleDue(queue);
    keys[queueKeys.length + 1] = KeySpace.scheduleStates(queue);
    int size = 3;
    for (Fire fire : fires) {
      size += fire.args().length;
    }
    byte[][] argv = new byte[size][];
    argv[0] = new Args(1).add(scriptTime.get()).toArray()[0];
    argv[1] = Long.toString(leadMs).getBytes(StandardCharsets.US_ASCII);
    argv[2] = Long.toString(fires.size()).getBytes(StandardCharsets.US_ASCII);
    int at = 3;
    for (int i = 0; i < fires.size(); i++) {
      Fire fire = fires.get(i);
      keys[queueKeys.length + 2 + i] = fire.history();
      System.arraycopy(fire.args(), 0, argv, at, fire.args().length);
      at += fire.args().length;
    }
    int count = fires.size();
    return gateway
        .runAsync(ScriptLibrary.SCHEDULE_FIRE, keys, argv)
        .thenApply(reply -> ScriptReplies.scheduleFire(reply, count));
  }

  /**
   * The job options as the fire script takes them: priority, attempts, time-to-run, TTL, and the
   * fairness key when there is one (its characters hold no comma: {@link
   * io.lineup.core.model.FairnessKey}).
   */
  private static String jobOptions(ScheduleSpec spec) {
    return spec.priority()
        + ","
        + (spec.maxAttempts() == null ? 0 : spec.maxAttempts())
        + ","
        + (spec.timeToRun() == null ? 0 : spec.timeToRun().toMillis())
        + ","
        + (spec.ttl() == null ? 0 : Math.max(1, spec.ttl().toMillis()))
        + (spec.key() == null ? "" : "," + spec.key());
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
