package io.lineup.core.internal.store;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Fails replies that do not come within one fixed timeout, checked by one platform thread every
 * {@link #TICK} instead of by a timer per call.
 *
 * <p>Why: a virtual thread that waits with a timeout ({@code future.get(timeout)}) schedules and
 * then cancels a timer task on the JDK's scheduler for every call. Profiling the server under
 * publish load showed that bookkeeping at about 8% of its CPU. Here a waiter only appends its reply
 * to a queue and waits without a timeout; this thread fails the replies that are overdue.
 *
 * <p>Every entry has the same timeout, so the queue is in deadline order (up to the few
 * microseconds between reading the clock and appending) and a sweep only looks at its head: it
 * drops answered entries and fails overdue ones until it meets one that is neither. Entries behind
 * a slow one stay until it is answered or overdue, so the queue holds at most about (calls per
 * second × timeout) entries. A reply is failed between 0 and {@link #TICK} after its deadline.
 */
final class ReplyDeadlines implements AutoCloseable {
  /** How often the overdue replies are looked for: the lateness of a timeout is at most this. */
  static final Duration TICK = Duration.ofMillis(5);

  /** The exception an overdue reply is failed with. */
  static final class Overdue extends RuntimeException {
    private Overdue() {
      super("no reply within the command timeout", null, false, false);
    }
  }

  private record Entry(CompletableFuture<?> reply, long deadlineNanos) {}

  private final long timeoutNanos;
  private final ConcurrentLinkedQueue<Entry> entries = new ConcurrentLinkedQueue<>();
  private final Thread sweeper;
  private volatile boolean closed;

  /**
   * Starts the sweeping thread (a daemon).
   *
   * @param timeout how long a reply may take, from {@link #watch}
   */
  ReplyDeadlines(Duration timeout) {
    this.timeoutNanos = timeout.toNanos();
    this.sweeper =
        Thread.ofPlatform().daemon().name("lineup-reply-deadlines").start(this::sweepUntilClosed);
  }

  /**
   * Fails {@code reply} with {@link Overdue} when it is not complete one timeout from now (give or
   * take {@link #TICK}). Completing it first is all the caller needs to do.
   */
  void watch(CompletableFuture<?> reply) {
    entries.add(new Entry(reply, System.nanoTime() + timeoutNanos));
    if (closed) {
      // Watched after the last sweep: nobody else will fail it.
      failAll();
    }
  }

  /** Entries not yet dropped (answered ones are dropped at the next sweep that reaches them). */
  int size() {
    return entries.size();
  }

  private void sweepUntilClosed() {
    while (!closed) {
      LockSupport.parkNanos(TICK.toNanos());
      sweep(System.nanoTime());
    }
    failAll();
  }

  /** Fails every reply still watched, so that nobody waits on a gateway that is closed. */
  private void failAll() {
    Entry entry;
    while ((entry = entries.poll()) != null) {
      entry.reply().completeExceptionally(new Overdue());
    }
  }

  private void sweep(long now) {
    Entry head;
    while ((head = entries.peek()) != null) {
      if (!head.reply().isDone() && now - head.deadlineNanos() < 0) {
        return;
      }
      entries.poll();
      if (!head.reply().isDone()) {
        head.reply().completeExceptionally(new Overdue());
      }
    }
  }

  /** Stops the thread; replies still watched are failed as overdue. */
  @Override
  public void close() {
    closed = true;
    LockSupport.unpark(sweeper);
    try {
      sweeper.join(TimeUnit.SECONDS.toMillis(2));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
