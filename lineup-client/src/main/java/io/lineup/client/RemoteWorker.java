package io.lineup.client;

import com.fasterxml.jackson.databind.node.TextNode;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs a {@link JobHandler} for the jobs of one queue over HTTP, {@code concurrency} at a time,
 * each on its own virtual thread: the remote twin of the embedded engine's {@code Worker}, with the
 * same methods, so moving a worker from the engine to a server changes the line that creates it.
 *
 * <p>One loop long-polls the lease route for as many jobs as there are free slots (waiting up to
 * {@link WorkerOptions#idleWait()} per call, answered at once when a job is ready; a refusal by a
 * queue limit waits the time the server names). Each handler's lease is extended when half of it is
 * left. A handler that returns acks its job; one that throws nacks it. {@link #close()} stops
 * leasing, lets running handlers finish within the shutdown grace, then interrupts them and nacks
 * their jobs with no retry delay, so another worker gets them at once (the HTTP API has no release
 * route yet, so that delivery counts as an attempt).
 *
 * <p>The lease extensions assume this machine's clock is within a fraction of the jobs' time-to-run
 * of the Redis server's.
 */
public final class RemoteWorker implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(RemoteWorker.class.getName());
  private static final long MAX_BACKOFF_MS = 1000;
  private static final int SETTLE_TRIES = 5;

  private final LineupClient client;
  private final QueueName queue;
  private final JobHandler handler;
  private final WorkerOptions options;
  private final Map<String, Running> running = new ConcurrentHashMap<>();
  private final Semaphore slotFreed = new Semaphore(0);
  private final AtomicLong handled = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final ScheduledExecutorService heartbeats;
  private volatile boolean leasing;
  private Thread fetcher;

  /** A job being handled: its thread and its scheduled lease extension. */
  private static final class Running {
    final LeasedJob job;
    volatile Instant deadline;
    volatile Thread thread;
    volatile ScheduledFuture<?> heartbeat;

    /** Set when the lease is gone or close() took the job over: the handler must not settle it. */
    volatile boolean abandoned;

    Running(LeasedJob job) {
      this.job = job;
      this.deadline = job.leaseDeadline();
    }
  }

  RemoteWorker(LineupClient client, QueueName queue, JobHandler handler, WorkerOptions options) {
    this.client = client;
    this.queue = queue;
    this.handler = handler;
    this.options = options;
    this.heartbeats =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("lineup-remote-heartbeat").factory());
  }

  /** Starts leasing; returns this. */
  public synchronized RemoteWorker start() {
    if (!leasing) {
      leasing = true;
      fetcher = Thread.ofVirtual().name("lineup-remote-worker-" + queue).start(this::fetchLoop);
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

  private void fetchLoop() {
    long backoff = 0;
    while (leasing) {
      int free = options.concurrency() - running.size();
      if (free <= 0) {
        awaitFreeSlot();
        continue;
      }
      List<LeasedJob> jobs;
      try {
        jobs = client.lease(queue, Math.min(free, LineupClient.MAX_BATCH), options.idleWait());
        backoff = 0;
      } catch (LeaseRefusedException refused) {
        sleep(refused.retryAfter().toMillis());
        continue;
      } catch (LineupClientException e) {
        if (!leasing) {
          break;
        }
        backoff = Math.min(MAX_BACKOFF_MS, Math.max(10, backoff * 2));
        LOG.log(Level.DEBUG, "Lease from {0} failed, retrying in {1} ms: {2}", queue, backoff, e);
        sleep(backoff);
        continue;
      }
      // Jobs that arrive while closing still run: close() gives them the shutdown grace.
      for (LeasedJob job : jobs) {
        dispatch(job);
      }
    }
  }

  private void dispatch(LeasedJob job) {
    Running run = new Running(job);
    running.put(job.id(), run);
    scheduleHeartbeat(run);
    Thread.ofVirtual().name("lineup-remote-job-" + job.id()).start(() -> handle(run));
  }

  private void handle(Running run) {
    run.thread = Thread.currentThread();
    LeasedJob job = run.job;
    try {
      byte[] result = handler.handle(job);
      handled.incrementAndGet();
      stopHeartbeat(run);
      if (!run.abandoned) {
        settle(job, () -> client.ack(job, resultJson(result)));
      }
    } catch (Throwable error) {
      failed.incrementAndGet();
      stopHeartbeat(run);
      if (!run.abandoned) {
        Duration delay = error instanceof RetryLaterException later ? later.delay() : null;
        settle(job, () -> client.nack(job, String.valueOf(error), delay));
      }
    } finally {
      running.remove(job.id());
      slotFreed.release();
    }
  }

  /** A handler's result as the JSON the ack route keeps. */
  static String resultJson(byte[] result) {
    if (result == null) {
      return null;
    }
    if (Json.isJson(result)) {
      return new String(result, StandardCharsets.UTF_8);
    }
    return Json.write(TextNode.valueOf(new String(result, StandardCharsets.UTF_8)));
  }

  /** Sends an ack or nack, retrying while the server is unreachable; a lost lease ends it. */
  private void settle(LeasedJob job, Runnable call) {
    for (int attempt = 0; attempt < SETTLE_TRIES; attempt++) {
      try {
        call.run();
        return;
      } catch (LeaseLostException | NotFoundException gone) {
        LOG.log(Level.DEBUG, "Job {0} was no longer ours to settle: {1}", job.id(), gone);
        return;
      } catch (ServerUnreachableException | ServiceUnavailableException e) {
        sleep(100L << attempt);
      } catch (LineupClientException e) {
        LOG.log(Level.WARNING, "Settling job {0} of {1} was refused: {2}", job.id(), queue, e);
        return;
      }
    }
    LOG.log(
        Level.WARNING,
        "Could not settle job {0} of {1}; it will be delivered again when its lease ends",
        job.id(),
        queue);
  }

  private void scheduleHeartbeat(Running run) {
    // Extend when half of the lease is left, so one slow or failed call still leaves time.
    long left = run.deadline.toEpochMilli() - System.currentTimeMillis();
    scheduleBeat(run, Math.max(50, left / 2));
  }

  private void scheduleBeat(Running run, long delayMs) {
    try {
      run.heartbeat = heartbeats.schedule(() -> beat(run), delayMs, TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.RejectedExecutionException closing) {
      // close() has stopped the heartbeats; it settles what is left.
    }
  }

  private void beat(Running run) {
    if (!running.containsKey(run.job.id()) || run.abandoned) {
      return;
    }
    try {
      run.deadline = client.extend(run.job, null);
      scheduleHeartbeat(run);
    } catch (LeaseLostException | NotFoundException lost) {
      LOG.log(
          Level.INFO,
          "Lease of job {0} lost while running ({1}); interrupting its handler",
          run.job.id(),
          lost.getMessage());
      run.abandoned = true;
      Thread thread = run.thread;
      if (thread != null) {
        thread.interrupt();
      }
    } catch (LineupClientException e) {
      long left = run.deadline.toEpochMilli() - System.currentTimeMillis();
      scheduleBeat(run, Math.max(50, left / 5));
    }
  }

  private static void stopHeartbeat(Running run) {
    ScheduledFuture<?> beat = run.heartbeat;
    if (beat != null) {
      beat.cancel(false);
    }
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
   * Stops leasing (a long-poll in progress is cancelled, and the server hands back any job it
   * leased for it), waits up to the shutdown grace for running handlers, then interrupts the rest
   * and nacks their jobs with no retry delay. Acks and nacks of finished handlers are sent before
   * it returns.
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
      try {
        fetcher.join(Duration.ofSeconds(10));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      fetcher = null;
    }
    long deadline = System.nanoTime() + options.shutdownGrace().toNanos();
    while (!running.isEmpty() && System.nanoTime() < deadline) {
      awaitFreeSlot();
    }
    for (Running run : running.values()) {
      run.abandoned = true;
      stopHeartbeat(run);
      Thread thread = run.thread;
      if (thread != null) {
        thread.interrupt();
      }
      settle(
          run.job,
          () ->
              client.nack(run.job, "the worker closed before the handler finished", Duration.ZERO));
    }
    heartbeats.shutdownNow();
  }
}
