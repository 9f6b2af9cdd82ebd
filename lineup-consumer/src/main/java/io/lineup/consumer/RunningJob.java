package io.lineup.consumer;

import java.util.concurrent.ScheduledFuture;

/** A job being run: its thread, its lease's end and its scheduled extension. */
final class RunningJob<J> {
  final J job;
  final String id;

  /** When the lease ends, on this process's {@link System#nanoTime()} clock. */
  volatile long leaseEndsAt;

  volatile Thread thread;
  volatile ScheduledFuture<?> heartbeat;

  /** Set once the handler returned or threw: no more extensions. */
  volatile boolean finished;

  /** Set when the lease is lost or close() took the job over: the handler must not settle it. */
  volatile boolean abandoned;

  RunningJob(J job, String id, long leaseEndsAt) {
    this.job = job;
    this.id = id;
    this.leaseEndsAt = leaseEndsAt;
  }

  /** The time the lease has left, in ms (negative once it has ended). */
  long leftMillis() {
    return (leaseEndsAt - System.nanoTime()) / 1_000_000;
  }

  /** Interrupts the handler's thread, if it started. */
  void interrupt() {
    Thread running = thread;
    if (running != null) {
      running.interrupt();
    }
  }
}
