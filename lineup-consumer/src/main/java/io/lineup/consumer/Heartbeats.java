package io.lineup.consumer;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Extends the leases of running jobs: each when half of what it has left is left, so one slow or
 * failed call still leaves time to try again (sooner, at a fifth of what is left). A lease the
 * source says is lost abandons its job and interrupts its runner.
 */
final class Heartbeats<J> {
  /** No extension is scheduled sooner than this, however little of the lease is left. */
  static final long MIN_DELAY_MS = 10;

  private final LeaseSource<J> source;
  private final ScheduledExecutorService timer;
  private final ConsumerLog log;

  Heartbeats(LeaseSource<J> source, String threadName, ConsumerLog log) {
    this.source = source;
    this.log = log;
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name(threadName).factory());
  }

  /** Schedules the job's first extension. */
  void start(RunningJob<J> run) {
    schedule(run, run.leftMillis() / 2);
  }

  /** Ends the job's extensions. */
  void stop(RunningJob<J> run) {
    run.finished = true;
    ScheduledFuture<?> beat = run.heartbeat;
    if (beat != null) {
      beat.cancel(false);
    }
  }

  /** Stops every extension; called when the loop has closed. */
  void shutdown() {
    timer.shutdownNow();
  }

  private void schedule(RunningJob<J> run, long delayMs) {
    try {
      run.heartbeat =
          timer.schedule(() -> beat(run), Math.max(MIN_DELAY_MS, delayMs), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException closing) {
      // The loop has closed; it settled what was left.
    }
  }

  private void beat(RunningJob<J> run) {
    if (run.finished || run.abandoned) {
      return;
    }
    long sentAt = System.nanoTime();
    try {
      Duration left = source.extend(run.job);
      run.leaseEndsAt = sentAt + left.toNanos();
      schedule(run, run.leftMillis() / 2);
    } catch (RuntimeException e) {
      if (source.classify(e) == Failure.LOST) {
        log.log(
            Level.INFO,
            () ->
                "Lease of job "
                    + run.id
                    + " lost while running ("
                    + e.getMessage()
                    + "); interrupting its handler");
        run.abandoned = true;
        run.interrupt();
      } else {
        schedule(run, run.leftMillis() / 5);
      }
    }
  }
}
