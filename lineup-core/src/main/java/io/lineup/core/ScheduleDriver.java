package io.lineup.core;

import io.lineup.core.internal.store.RedisStore;
import io.lineup.core.internal.store.ScheduleStore;
import io.lineup.core.internal.store.ScheduleStore.Fire;
import io.lineup.core.internal.store.ScheduleStore.FireReply;
import io.lineup.core.internal.store.ScheduleStore.Read;
import io.lineup.core.internal.store.ScheduleStore.Stored;
import io.lineup.core.internal.store.ScheduleStore.Tick;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.ScheduleSpec;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each engine's schedule driver: one thread that fires the due schedules of every queue that has
 * any ({@code schedule_fire.lua}). Every engine runs one; which one publishes a tick's job is
 * decided in Redis, so drivers need no leader and a tick never makes two jobs.
 *
 * <p>It reads a queue's schedules due within the next {@value #LOOKAHEAD_MS} ms ahead of time and
 * works out what each tick does (its job, its next tick, the missed-ticks policy), so that at the
 * tick it sends only the fire call: one round trip for every schedule of the queue due then (in
 * calls of up to {@value #CHUNK} schedules, sent together), {@value #FIRE_AHEAD_MS} ms before the
 * tick, its job due at the tick. A schedule changed meanwhile is not fired from the stale read (its
 * rev moved): the queue is read again at once.
 *
 * <p>It knows each queue's earliest due tick from its last read or fire, and reads a queue's again
 * at once when any engine writes one of its schedules (the engine announces it on a pub/sub
 * channel, {@link ScheduleStore#announce}), and every queue's every {@value #REFRESH_MS} ms, which
 * makes up for an announcement lost in an outage. On the Redis clock it sleeps to the tick's time
 * on this host, estimated from the Redis times its calls return; with a {@link ManualClock} it
 * looks every {@value #MANUAL_CLOCK_POLL_MS} ms. While Redis cannot be reached it tries again after
 * a pause that grows to a second, and then reads every queue afresh: ticks missed meanwhile follow
 * their schedules' policy.
 */
final class ScheduleDriver implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ScheduleDriver.class);

  /** How often every queue's earliest due tick is read again, in ms. */
  static final long REFRESH_MS = 500;

  /**
   * How far ahead of their ticks due schedules are read and planned, in ms: reading and planning a
   * thousand (their next ticks worked out with cron-utils) must end before they are fired, {@link
   * #FIRE_AHEAD_MS} before their tick, on a machine also busy with the jobs of the tick before.
   */
  static final long LOOKAHEAD_MS = 300;

  /**
   * How far ahead of its tick a tick is fired, in ms: its job goes into the line then, as a job due
   * at the tick, so that the engine's due-time machinery makes it ready at the tick itself however
   * long Redis takes to fire every schedule due at that moment (1,000 schedules of one queue due at
   * the same second took 20 to 40 ms of Redis time to fire). A change to a schedule made within
   * this time before a tick applies from the tick after.
   */
  static final long FIRE_AHEAD_MS = 50;

  /** With a {@link ManualClock}: how often the driver looks whether time moved, in ms. */
  static final long MANUAL_CLOCK_POLL_MS = 10;

  /** Most schedules read at once from one queue. */
  static final int BATCH = 1000;

  /** Most schedules per fire call; the calls of one moment are sent together. */
  static final int CHUNK = 250;

  /** How long the tightest bound on the Redis clock is kept before a new one replaces it, in ms. */
  static final long OFFSET_KEPT_MS = 5000;

  private static final long UNKNOWN = -2;
  private static final long NONE = -1;

  private final ScheduleStore store;
  private final TimeSource time;

  /** Each queue's earliest due tick not planned yet (epoch ms), NONE, or UNKNOWN: read it. */
  private final Map<QueueName, Long> earliest = new ConcurrentHashMap<>();

  /** Planned fires by queue and schedule name; only the driver's thread touches it. */
  private final Map<QueueName, Map<String, Fire>> pending = new HashMap<>();

  private volatile boolean running;
  private volatile Thread thread;

  /** The subscription to the schedule changes any engine announces; null until it is made. */
  private volatile AutoCloseable announcements;

  /** Redis time is at least (System.nanoTime() + offsetNanos) / 1e6 (see learnOffset). */
  private volatile long offsetNanos;

  private volatile boolean offsetKnown;

  /** When the estimate was last set (System.nanoTime()). */
  private volatile long offsetLearnedNanos;

  ScheduleDriver(ScheduleStore store, TimeSource time) {
    this.store = store;
    this.time = time;
  }

  synchronized void start() {
    if (running) {
      return;
    }
    running = true;
    thread = Thread.ofPlatform().daemon().name("lineup-schedules").start(this::loop);
  }

  /** A schedule of the queue was written here: read its due ticks at once. */
  void wake(QueueName queue) {
    earliest.put(queue, UNKNOWN);
    Thread t = thread;
    if (t != null) {
      LockSupport.unpark(t);
    }
  }

  private void loop() {
    long nextRefresh = System.nanoTime();
    long pauseMs = 0;
    while (running) {
      try {
        if (System.nanoTime() - nextRefresh >= 0) {
          listen();
          for (QueueName queue : store.scheduledQueues()) {
            // A queue with planned fires is read again once they are fired.
            Map<String, Fire> planned = pending.get(queue);
            if (planned == null || planned.isEmpty()) {
              earliest.put(queue, UNKNOWN);
            }
          }
          nextRefresh = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(REFRESH_MS);
        }
        long soonest = Long.MAX_VALUE;
        boolean again = false;
        for (QueueName queue : earliest.keySet()) {
          Map<String, Fire> planned = pending.computeIfAbsent(queue, q -> new HashMap<>());
          long due = earliest.get(queue);
          if (due == UNKNOWN || (planned.isEmpty() && due >= 0 && due <= now() + LOOKAHEAD_MS)) {
            // Set before reading: a wake meanwhile puts UNKNOWN back, which the next round reads.
            earliest.put(queue, NONE);
            long found = plan(queue, planned);
            earliest.replace(queue, NONE, found);
          }
          if (!planned.isEmpty() && firstTick(planned) <= now() + FIRE_AHEAD_MS) {
            fire(queue, planned);
          }
          due = earliest.get(queue);
          if (due == UNKNOWN) {
            again = true;
          } else if (!planned.isEmpty()) {
            soonest = Math.min(soonest, firstTick(planned) - FIRE_AHEAD_MS);
          } else if (due >= 0) {
            soonest = Math.min(soonest, due - LOOKAHEAD_MS);
          }
        }
        pauseMs = 0;
        if (!again) {
          sleepUntil(soonest, nextRefresh);
        }
      } catch (RuntimeException e) {
        if (!running) {
          return;
        }
        if (RedisStore.isUnreachable(e)) {
          LOG.debug("schedules: Redis unavailable, will retry: {}", e.getMessage());
        } else {
          LOG.warn("schedules: round failed", e);
        }
        pauseMs = Math.min(1000, Math.max(50, pauseMs * 2));
        pending.clear();
        earliest.replaceAll((queue, due) -> UNKNOWN);
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(pauseMs));
        nextRefresh = System.nanoTime();
      }
    }
  }

  /** Subscribes to the schedule changes every engine announces, unless subscribed already. */
  private void listen() {
    if (announcements != null) {
      return;
    }
    try {
      announcements = store.onAnnounced(this::wake);
    } catch (RuntimeException e) {
      // The periodic reads stand in until the next refresh tries again.
      LOG.debug("schedules: cannot subscribe to schedule changes yet: {}", e.getMessage());
    }
  }

  /**
   * Reads the queue's schedules due within the lookahead and plans them (a schedule planned at the
   * rev read is kept as planned); returns the queue's earliest due tick.
   */
  private long plan(QueueName queue, Map<String, Fire> planned) {
    Read read = store.readDue(queue, LOOKAHEAD_MS, BATCH);
    learnOffset(read.nowMicros(), System.nanoTime());
    for (Stored stored : read.schedules()) {
      Fire known = planned.get(stored.spec().name());
      if (known == null || known.read().state().rev() != stored.state().rev()) {
        planned.put(
            stored.spec().name(), plan(queue, stored, Math.max(read.nowMs(), stored.dueMs())));
      }
    }
    return read.earliestMs();
  }

  /**
   * Fires the queue's planned schedules whose tick has come, in calls of up to {@link #CHUNK} sent
   * together. A fire moved by a change or another engine is dropped, and the queue read again; an
   * early one (this host's estimate of the Redis clock ran ahead) stays planned.
   */
  private void fire(QueueName queue, Map<String, Fire> planned) {
    long now = now();
    List<Fire> due = new ArrayList<>();
    for (Fire fire : planned.values()) {
      if (fire.read().dueMs() <= now + FIRE_AHEAD_MS) {
        due.add(fire);
      }
    }
    due.sort(Comparator.comparingLong(fire -> fire.read().dueMs()));
    List<CompletableFuture<FireReply>> calls = new ArrayList<>();
    for (int from = 0; from < due.size(); from += CHUNK) {
      calls.add(
          store.fireAsync(
              queue, due.subList(from, Math.min(due.size(), from + CHUNK)), FIRE_AHEAD_MS));
    }
    boolean moved = false;
    FireReply last = null;
    for (int c = 0; c < calls.size(); c++) {
      FireReply reply = store.await(calls.get(c));
      long answered = System.nanoTime();
      learnOffset(reply.nowMicros(), answered);
      last = reply;
      for (int i = 0; i < reply.codes().length; i++) {
        Fire fire = due.get(c * CHUNK + i);
        if (reply.codes()[i] == ScheduleStore.EARLY) {
          // The estimate ran ahead of the Redis clock (set back since?): take this answer's.
          offsetNanos = reply.nowMicros() * 1000L - answered;
          offsetLearnedNanos = answered;
          continue;
        }
        planned.remove(fire.read().spec().name());
        moved |= reply.codes()[i] == ScheduleStore.MOVED;
      }
    }
    if (moved) {
      earliest.put(queue, UNKNOWN);
    } else if (last != null && planned.isEmpty()) {
      long after = last.earliestMs();
      earliest.computeIfPresent(queue, (q, e) -> e == UNKNOWN ? e : after);
    }
  }

  private static long firstTick(Map<String, Fire> planned) {
    long first = Long.MAX_VALUE;
    for (Fire fire : planned.values()) {
      first = Math.min(first, fire.read().dueMs());
    }
    return first;
  }

  /**
   * What to do for a due schedule at {@code nowMs}: publish the tick's job and move to the next
   * tick; or, when the tick is more than {@link ScheduleSpec#MISSED_AFTER} behind, apply its
   * missed-ticks policy and move to its first tick after now.
   */
  static Fire plan(QueueName queue, Stored stored, long nowMs) {
    ScheduleSpec spec = stored.spec();
    Instant anchor = Instant.ofEpochMilli(stored.state().anchorMs());
    long due = stored.dueMs();
    List<Tick> jobs = new ArrayList<>();
    List<Tick> skipped = new ArrayList<>();
    Optional<Instant> next;
    if (nowMs - due <= ScheduleSpec.MISSED_AFTER.toMillis()) {
      jobs.add(job(spec, due));
      next = spec.tickAtOrAfter(Instant.ofEpochMilli(due + 1), anchor);
    } else {
      // The missed ticks from the due one to now, newest first, as many as the policy can use.
      int wanted =
          switch (spec.missed()) {
            case SKIP -> 1 + spec.historySize();
            case CATCH_UP -> spec.catchUpMax() + spec.historySize();
            case NONE -> spec.historySize();
          };
      Deque<Long> missed = new ArrayDeque<>();
      Optional<Instant> cursor = spec.tickAtOrBefore(Instant.ofEpochMilli(nowMs), anchor);
      while (cursor.isPresent() && cursor.get().toEpochMilli() >= due && missed.size() < wanted) {
        missed.addFirst(cursor.get().toEpochMilli());
        cursor = spec.tickAtOrBefore(cursor.get().minusMillis(1), anchor);
      }
      if (missed.isEmpty()) {
        // The due tick is not a tick of the spec (it changed): publish it as due.
        missed.add(due);
      }
      int toPublish =
          switch (spec.missed()) {
            case SKIP -> 1;
            case CATCH_UP -> Math.min(spec.catchUpMax(), missed.size());
            case NONE -> 0;
          };
      List<Long> ticks = new ArrayList<>(missed);
      int firstJob = ticks.size() - toPublish;
      for (int i = 0; i < ticks.size(); i++) {
        if (i >= firstJob) {
          jobs.add(job(spec, ticks.get(i)));
        } else {
          skipped.add(new Tick(ScheduleEngine.jobId(spec.name(), ticks.get(i)), ticks.get(i), 0));
        }
      }
      next = spec.tickAtOrAfter(Instant.ofEpochMilli(nowMs + 1), anchor);
    }
    return Fire.of(queue, stored, next.map(Instant::toEpochMilli).orElse(-1L), jobs, skipped);
  }

  private static Tick job(ScheduleSpec spec, long tickMs) {
    Instant tick = Instant.ofEpochMilli(tickMs);
    return new Tick(
        ScheduleEngine.jobId(spec.name(), tickMs), tickMs, tickMs + spec.jitterAt(tick).toMillis());
  }

  /** The engine clock's time in ms, as best known without asking Redis. */
  private long now() {
    if (time instanceof ManualClock manual) {
      return manual.now().toEpochMilli();
    }
    if (!offsetKnown) {
      return System.currentTimeMillis();
    }
    return Math.floorDiv(System.nanoTime() + offsetNanos, 1_000_000L);
  }

  /**
   * Redis said {@code redisMicros} before {@code answeredNanos}: its clock is at least that far
   * along now. The estimate is the tightest such bound of the last {@value #OFFSET_KEPT_MS} ms (the
   * quickest answer's), so that the driver fires when Redis has surely reached a tick, at most a
   * quick round trip late; a fire Redis finds early writes nothing and costs a round trip. An older
   * bound gives way to a new one, so that the estimate follows the Redis clock if it is set.
   */
  private void learnOffset(long redisMicros, long answeredNanos) {
    if (time instanceof ManualClock) {
      return;
    }
    long offset = redisMicros * 1000L - answeredNanos;
    if (!offsetKnown
        || offset > offsetNanos
        || answeredNanos - offsetLearnedNanos > TimeUnit.MILLISECONDS.toNanos(OFFSET_KEPT_MS)) {
      offsetNanos = offset;
      offsetLearnedNanos = answeredNanos;
      offsetKnown = true;
    }
  }

  /** Sleeps until the engine clock reaches {@code dueMs} or the refresh is due, or a wake. */
  private void sleepUntil(long dueMs, long refreshNanos) {
    long untilRefresh = refreshNanos - System.nanoTime();
    long wait = untilRefresh;
    if (time instanceof ManualClock) {
      wait = Math.min(wait, TimeUnit.MILLISECONDS.toNanos(MANUAL_CLOCK_POLL_MS));
    } else if (dueMs != Long.MAX_VALUE) {
      long untilDue =
          offsetKnown
              ? dueMs * 1_000_000L - (System.nanoTime() + offsetNanos)
              : TimeUnit.MILLISECONDS.toNanos(dueMs - System.currentTimeMillis());
      wait = Math.min(wait, untilDue);
    }
    if (wait > 0) {
      LockSupport.parkNanos(wait);
    }
  }

  @Override
  public void close() {
    Thread t;
    synchronized (this) {
      running = false;
      t = thread;
    }
    if (t != null) {
      LockSupport.unpark(t);
      try {
        t.join(5000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    AutoCloseable listening = announcements;
    if (listening != null) {
      try {
        listening.close();
      } catch (Exception e) {
        LOG.debug("schedules: closing the subscription failed: {}", e.getMessage());
      }
    }
  }
}
