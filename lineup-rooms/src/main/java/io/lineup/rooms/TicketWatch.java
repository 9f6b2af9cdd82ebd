package io.lineup.rooms;

import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * One follower of a ticket (an event stream or a long poll) registered with its room's {@link
 * RoomWatcher}: the watcher hands it the ticket's new views, the follower's own thread waits for
 * them and writes them out. What it costs is this object and a parked thread; it reads nothing
 * itself. Waits use a lock and a condition, not {@code synchronized}, so that a parked virtual
 * thread does not hold its carrier.
 */
final class TicketWatch {
  /** What counts as a change: what a page shows, without the suggested poll interval. */
  record Signature(TicketStatus status, long position, Long etaMs) {
    static Signature of(Ticket t) {
      return new Signature(
          t.status(), t.position(), t.eta() == null ? null : t.eta().point().toMillis());
    }
  }

  private final String ticket;
  private final BooleanSupplier closing;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  // Read and written by the room's watcher thread only.
  private PollRecord record;
  private Signature known;
  // Guarded by lock.
  private Ticket pending;
  private RuntimeException failure;
  private boolean ended;

  /**
   * @param ticket the ticket id
   * @param first the ticket as the follower last told it
   * @param record its poll record (null when it has none: admitted, gone, or unknown)
   * @param closing true once the follower's caller shuts down
   */
  TicketWatch(String ticket, Ticket first, PollRecord record, BooleanSupplier closing) {
    this.ticket = ticket;
    this.record = record;
    this.known = Signature.of(first);
    this.closing = closing;
  }

  String ticket() {
    return ticket;
  }

  /** The poll record the watcher keeps touching (watcher thread only). */
  PollRecord record() {
    return record;
  }

  void record(PollRecord record) {
    this.record = record;
  }

  /** Whether the ticket may still change as far as the watcher knows (watcher thread only). */
  boolean open() {
    return !known.status().isFinal();
  }

  /** The status the watcher last saw (watcher thread only). */
  TicketStatus status() {
    return known.status();
  }

  boolean closing() {
    return closing.getAsBoolean();
  }

  /**
   * Hands the follower a view of its ticket when it differs from the last one handed (watcher
   * thread only); a view not yet taken is replaced, so a slow follower gets the newest.
   */
  void offer(Ticket view) {
    Signature sig = Signature.of(view);
    if (Objects.equals(sig, known)) {
      return;
    }
    known = sig;
    lock.lock();
    try {
      pending = view;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Ends the following with an error the follower's thread throws. */
  void fail(RuntimeException e) {
    lock.lock();
    try {
      failure = e;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Ends the following (its caller shuts down, or the rooms close). */
  void end() {
    lock.lock();
    try {
      ended = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits up to {@code maxMs} ms for a new view of the ticket.
   *
   * @return the new view, or null when none came in time or the following ended ({@link #ended})
   * @throws RuntimeException the error the watcher ended the following with
   * @throws InterruptedException when the waiting thread is interrupted
   */
  Ticket await(long maxMs) throws InterruptedException {
    long left = TimeUnit.MILLISECONDS.toNanos(Math.max(0, maxMs));
    lock.lock();
    try {
      while (pending == null && failure == null && !ended) {
        if (left <= 0) {
          return null;
        }
        left = changed.awaitNanos(left);
      }
      if (failure != null) {
        throw failure;
      }
      Ticket view = pending;
      pending = null;
      return view;
    } finally {
      lock.unlock();
    }
  }

  /** Whether the following was ended (not by a change of the ticket). */
  boolean ended() {
    lock.lock();
    try {
      return ended;
    } finally {
      lock.unlock();
    }
  }
}
