package io.lineup.core;

import io.lineup.core.internal.store.LeaseNonce;
import io.lineup.core.internal.store.PendingLease;
import io.lineup.core.internal.store.RedisStore;
import io.lineup.core.internal.store.RedisStore.Ack;
import io.lineup.core.internal.store.ScriptCode;
import io.lineup.core.internal.store.ScriptReplies.LeaseReply;
import io.lineup.core.internal.store.WakeWatch;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link JobHandler} for the jobs of one queue, {@code concurrency} at a time, each on its
 * own virtual thread.
 *
 * <p>One fetch loop leases as many jobs as there are free slots, with up to two lease calls on
 * their way (the second sent while Redis runs the first, once half the slots are free for it); acks
 * of finished jobs ride on the next lease call, so a busy worker costs one script call per batch
 * rather than two per job. When the queue is empty the loop blocks on the queue's wake-up list (it
 * is woken when a job arrives, and on time when a delayed job falls due) and finished jobs are
 * acked directly. Leases are extended while handlers run. {@link #close()} stops leasing, lets
 * running handlers finish within the shutdown grace, then interrupts them and releases their jobs
 * back to their place in line.
 */
public final class Worker implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Worker.class);
  private static final long MAX_BACKOFF_MS = 1000;

  /**
   * Lease calls one worker has on their way at most. With one at a time, Redis stood idle for about
   * a fifth of a busy drain while the worker unpacked each reply and started its jobs.
   */
  static final int LEASE_CALLS_IN_FLIGHT = 2;

  private final Leaser leaser;
  private final RedisStore store;
  private final QueueName queue;
  private final JobHandler handler;
  private final WorkerOptions options;

  /**
   * This worker's name in its queue's due watch (lease.lua): random, so that it is unique among the
   * queue's consumers in every process.
   */
  private final String name = "w" + LeaseNonce.next();

  private final ConcurrentLinkedQueue<Ack> pendingAcks = new ConcurrentLinkedQueue<>();
  private final Map<String, Running> running = new ConcurrentHashMap<>();
  private final Semaphore slotFreed = new Semaphore(0);
  private final AtomicLong handled = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final ScheduledExecutorService heartbeats;
  private volatile boolean leasing;
  private volatile boolean fetchBlocked;
  private Thread fetcher;

  /** Thrown by an internal handler (the job stream's) to give its job back unused. */
  static final class ReleaseRequest extends RuntimeException {
    ReleaseRequest() {
      super("released", null, false, false);
    }
  }

  /** A job being handled: its thread and the scheduled lease extension. */
  private static final class Running {
    final LeasedJob job;
    final long ttrMillis;
    volatile Thread thread;
    volatile ScheduledFuture<?> heartbeat;
    volatile boolean released;

    Running(LeasedJob job) {
      this.job = job;
      this.ttrMillis =
          Math.max(1, job.leaseDeadline().toEpochMilli() - job.leasedAt().toEpochMilli());
    }
  }

  Worker(
      Leaser leaser, RedisStore store, QueueName queue, JobHandler handler, WorkerOptions options) {
    this.leaser = leaser;
    this.store = store;
    this.queue = queue;
    this.handler = handler;
    this.options = options;
    this.heartbeats =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("lineup-heartbeat").factory());
  }

  /** Starts leasing; returns this. */
  public synchronized Worker start() {
    if (!leasing) {
      leasing = true;
      fetcher = Thread.ofVirtual().name("lineup-worker-" + queue).start(this::fetchLoop);
    }
    return this;
  }

  /** Jobs being handled now. */
  public int inFlight() {
    return running.size();
  }

  /** Jobs whose handler returned, since start. */
  public long handled() {
    return handled.get();
  }

  /** Jobs whose handler threw, since start. */
  public long failed() {
    return failed.get();
  }

  /**
   * The fetch loop. It keeps up to {@link #LEASE_CALLS_IN_FLIGHT} lease calls on their way: while
   * Redis runs one, the loop starts the jobs of the one before and sends the next as soon as the
   * slots it would fill are free, so Redis finds the next call waiting instead of standing idle
   * while the worker unpacks jobs. A second call goes out only when at least half the slots are
   * free for it (so a worker of concurrency 1 makes one call at a time, as it always did). Replies
   * are read in the order the calls were sent, which is the order Redis ran them, so jobs start in
   * the order they were leased.
   */
  private void fetchLoop() {
    try (WakeWatch watch = store.watchWake(queue)) {
      fetchLoop(watch);
    }
  }

  private void fetchLoop(WakeWatch watch) {
    Deque<PendingLease> calls = new ArrayDeque<>();
    long backoff = 0;
    boolean drained = false;
    long waitHint = -1;
    while (leasing) {
      if (!drained) {
        PendingLease sent;
        try {
          sent = sendIfWorthIt(calls);
        } catch (RuntimeException e) {
          backoff = backOff(backoff, e);
          continue;
        }
        if (sent != null) {
          calls.add(sent);
          continue;
        }
      }
      PendingLease head = calls.peek();
      if (head == null) {
        if (drained) {
          drained = false;
          idle(watch, waitHint);
        } else {
          awaitFreeSlot();
        }
        continue;
      }
      if (!head.isDone() && calls.size() < LEASE_CALLS_IN_FLIGHT && !drained) {
        // Woken by a freed slot (perhaps enough for the next call) or by this call's reply.
        awaitFreeSlot();
        continue;
      }
      calls.poll();
      LeaseReply reply;
      try {
        reply = head.await();
        backoff = 0;
      } catch (RuntimeException e) {
        pendingAcks.addAll(head.acks());
        backoff = backOff(backoff, e);
        continue;
      }
      report(head.acks(), reply.ackCodes());
      for (LeasedJob job : reply.jobs()) {
        dispatch(job);
      }
      // An empty answer to a call that asked for jobs: wait for a job to arrive (after the
      // calls still on their way) instead of asking again at once.
      drained = reply.jobs().isEmpty() && head.count() > 0;
      waitHint = reply.waitMicros();
    }
    // Calls sent before close() may have leased jobs: start them (close() gives them the grace
    // and then releases them) rather than leave them leased until their lease ends.
    for (PendingLease call : calls) {
      try {
        LeaseReply reply = call.await();
        report(call.acks(), reply.ackCodes());
        reply.jobs().forEach(this::dispatch);
      } catch (RuntimeException e) {
        pendingAcks.addAll(call.acks());
      }
    }
  }

  /**
   * Sends the next lease call, carrying the waiting acks, when there is room for one: with no call
   * on its way, when a slot is free or an ack waits; with one on its way, when at least half the
   * slots are free besides those it asked for.
   *
   * @return the call sent, or null when none was worth sending
   */
  private PendingLease sendIfWorthIt(Deque<PendingLease> calls) {
    if (calls.size() >= LEASE_CALLS_IN_FLIGHT) {
      return null;
    }
    int asked = 0;
    for (PendingLease call : calls) {
      asked += call.count();
    }
    int free = options.concurrency() - running.size() - asked;
    if (!calls.isEmpty() && free < Math.max(1, options.concurrency() / 2)) {
      return null;
    }
    List<Ack> acks = drainAcks();
    if (free <= 0 && acks.isEmpty()) {
      return null;
    }
    try {
      PendingLease call = leaser.sendLease(queue, Math.max(0, free), acks, name);
      call.whenDone(slotFreed::release);
      return call;
    } catch (RuntimeException e) {
      pendingAcks.addAll(acks);
      throw e;
    }
  }

  private long backOff(long backoff, RuntimeException e) {
    long next = Math.min(MAX_BACKOFF_MS, Math.max(10, backoff * 2));
    LOG.debug("Lease from {} failed, retrying in {} ms: {}", queue, next, e.getMessage());
    sleep(next);
    return next;
  }

  /** Blocks until woken, or for the lease script's wait hint (µs, -1 none) or the idle wait. */
  private void idle(WakeWatch watch, long waitHintMicros) {
    long wait = TimeUnit.MICROSECONDS.convert(options.idleWait());
    if (waitHintMicros >= 0) {
      wait = Math.min(wait, Math.max(1, waitHintMicros));
    }
    fetchBlocked = true;
    try {
      // A handler that finished before the flag was set left its ack for us: send it first.
      if (!pendingAcks.isEmpty()) {
        return;
      }
      watch.await(wait);
    } catch (InterruptedException e) {
      // close() interrupts the wait.
    } catch (RuntimeException e) {
      sleep(100);
    } finally {
      fetchBlocked = false;
    }
  }

  private void dispatch(LeasedJob job) {
    Running run = new Running(job);
    running.put(job.id(), run);
    scheduleHeartbeat(run);
    Thread.ofVirtual().name("lineup-job-" + job.id()).start(() -> handle(run));
  }

  private void handle(Running run) {
    run.thread = Thread.currentThread();
    LeasedJob job = run.job;
    // The ack or nack is queued or sent before the slot is freed, so close(), which waits for
    // the slots, never returns while a settlement is still on its way: an ack this thread sends
    // itself (the fetcher idles, or the worker is closing) is sent before its slot is freed.
    try {
      byte[] result = handler.handle(job);
      handled.incrementAndGet();
      stopHeartbeat(run);
      if (!run.released) {
        pendingAcks.add(new Ack(job.id(), job.token(), result));
      }
      if (fetchBlocked || !leasing) {
        flushAcks();
      }
      freeSlot(run);
    } catch (Throwable error) {
      failed.incrementAndGet();
      stopHeartbeat(run);
      if (error instanceof ReleaseRequest || error instanceof ReleaseJobException) {
        settleRelease(job);
      } else if (!run.released) {
        Duration delay = error instanceof RetryLaterException later ? later.delay() : null;
        settleNack(job, String.valueOf(error), delay);
      }
      freeSlot(run);
    }
  }

  private static void stopHeartbeat(Running run) {
    ScheduledFuture<?> beat = run.heartbeat;
    if (beat != null) {
      beat.cancel(false);
    }
  }

  private void freeSlot(Running run) {
    running.remove(run.job.id());
    slotFreed.release();
  }

  /** Sends waiting acks now, in one call; on failure they stay for the fetch loop to retry. */
  private void flushAcks() {
    flushAcks(false);
  }

  /**
   * Sends the waiting acks in one call.
   *
   * @param resign also when there are none, naming this worker, so that it gives up the queue's due
   *     watch if it holds it (a call asking for no jobs does) and another consumer takes it now
   *     rather than when the watch is overdue
   */
  private void flushAcks(boolean resign) {
    List<Ack> acks = drainAcks();
    if (acks.isEmpty() && !resign) {
      return;
    }
    try {
      report(acks, leaser.sendLease(queue, 0, acks, resign ? name : null).await().ackCodes());
    } catch (RuntimeException e) {
      pendingAcks.addAll(acks);
      LOG.debug("Ack of {} jobs failed, will retry: {}", acks.size(), e.getMessage());
    }
  }

  /** Gives the job back unused (its place in line and its attempt kept); best effort. */
  private void settleRelease(LeasedJob job) {
    try {
      leaser.release(queue, job.id(), job.token());
    } catch (LeaseLostException | JobNotFoundException gone) {
      LOG.debug("Release of {} not needed: {}", job.id(), gone.getMessage());
    } catch (RuntimeException e) {
      LOG.warn(
          "Could not release job {}; it will be delivered again when its lease ends", job.id());
    }
  }

  private void settleNack(LeasedJob job, String error, Duration delay) {
    for (int attempt = 0; attempt < 5; attempt++) {
      try {
        leaser.nack(queue, job.id(), job.token(), error, delay);
        return;
      } catch (LeaseLostException | JobNotFoundException gone) {
        LOG.debug("Nack of {} not needed: {}", job.id(), gone.getMessage());
        return;
      } catch (RuntimeException e) {
        sleep(100L << attempt);
      }
    }
    LOG.warn("Could not nack job {}; it will be delivered again when its lease ends", job.id());
  }

  private void report(List<Ack> acks, List<ScriptCode> codes) {
    for (int i = 0; i < codes.size(); i++) {
      if (codes.get(i) != ScriptCode.OK) {
        LOG.warn("Ack of job {} in {} was refused: {}", acks.get(i).id(), queue, codes.get(i));
      }
    }
  }

  private void scheduleHeartbeat(Running run) {
    // Extend when half the lease is left, so one slow or lost call still leaves time to retry.
    long delay = Math.max(1, run.ttrMillis / 2);
    run.heartbeat = heartbeats.schedule(() -> beat(run), delay, TimeUnit.MILLISECONDS);
  }

  private void beat(Running run) {
    if (!running.containsKey(run.job.id())) {
      return;
    }
    try {
      leaser.extend(queue, run.job.id(), run.job.token(), Duration.ofMillis(run.ttrMillis));
      scheduleHeartbeat(run);
    } catch (LeaseLostException | JobNotFoundException lost) {
      LOG.info(
          "Lease of job {} lost while running ({}); interrupting its handler",
          run.job.id(),
          lost.getMessage());
      run.released = true;
      Thread thread = run.thread;
      if (thread != null) {
        thread.interrupt();
      }
    } catch (RuntimeException e) {
      // Redis unreachable: try again soon; the lease still has half its time.
      run.heartbeat =
          heartbeats.schedule(
              () -> beat(run), Math.max(1, run.ttrMillis / 10), TimeUnit.MILLISECONDS);
    }
  }

  private List<Ack> drainAcks() {
    List<Ack> acks = new ArrayList<>();
    Ack ack;
    while (acks.size() < Limits.MAX_BATCH && (ack = pendingAcks.poll()) != null) {
      acks.add(ack);
    }
    return acks;
  }

  private void awaitFreeSlot() {
    try {
      slotFreed.tryAcquire(100, TimeUnit.MILLISECONDS);
      slotFreed.drainPermits();
    } catch (InterruptedException e) {
      // close() interrupts.
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Stops leasing, waits up to the shutdown grace for running handlers, then interrupts the rest
   * and releases their jobs: back to their place in line, the attempt not counted. Pending acks are
   * sent before it returns.
   */
  @Override
  public void close() {
    synchronized (this) {
      if (!leasing && fetcher == null) {
        heartbeats.shutdownNow();
        return;
      }
      leasing = false;
    }
    if (fetcher != null) {
      fetcher.interrupt();
      joinQuietly(fetcher);
      fetcher = null;
      flushAcks(true);
    } else {
      flushAcks();
    }
    long deadline = System.nanoTime() + options.shutdownGrace().toNanos();
    while (!running.isEmpty() && System.nanoTime() < deadline) {
      awaitFreeSlot();
    }
    for (Running run : running.values()) {
      run.released = true;
      Thread thread = run.thread;
      if (thread != null) {
        thread.interrupt();
      }
      settleRelease(run.job);
    }
    flushAcks();
    heartbeats.shutdownNow();
  }

  private static void joinQuietly(Thread thread) {
    try {
      thread.join(Duration.ofSeconds(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
