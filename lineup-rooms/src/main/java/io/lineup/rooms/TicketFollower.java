package io.lineup.rooms;

import java.io.IOException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;

/**
 * Follows one ticket for a stream of its changes ({@link Room#follow}): tells the sink the ticket
 * each time its status, position or ETA changes, and a last time when it is admitted (with the
 * pass) or gone, after which the following ends. It also ends after {@value #MAX_STREAM_MS} ms (the
 * client reconnects) or once the caller is closing (noticed within {@value
 * RoomWatcher#CLOSING_CHECK_MS} ms). Asks for a keep-alive when nothing was told for {@value
 * #KEEP_ALIVE_MS} ms (the first one sooner, at a random point of the period's second half).
 *
 * <p>The following reads nothing itself: it registers with its room's one watcher on this instance
 * ({@link RoomWatcher}), which reads Redis for all of the room's followers together, keeps their
 * tickets' places (following counts as polling) and hands each follower its ticket's changes. An
 * admission or a departure is told at once; position changes of a waiting ticket at most once every
 * {@value RoomWatcher#POSITION_EVERY_MS} ms.
 */
public final class TicketFollower {
  /** A keep-alive is asked for when nothing was told this long, in ms. */
  public static final long KEEP_ALIVE_MS = 15_000;

  /** Keep-alives fall due on multiples of this, in ms (see {@link #keepAliveAt}). */
  static final long KEEP_ALIVE_GRID_MS = 20;

  /** Longest following, in ms: 1 hour. */
  public static final long MAX_STREAM_MS = 3_600_000;

  /** Longest wait of a long poll ({@link Room#poll(String, long)}), in ms: 30 s. */
  public static final long MAX_WAIT_MS = 30_000;

  /** Where a ticket's changes go (an event stream, say). */
  public interface Sink {
    /**
     * Tells a change of the ticket.
     *
     * @throws IOException when the reader went away (the following ends)
     */
    void send(Ticket ticket) throws IOException;

    /**
     * Nothing changed for {@link #KEEP_ALIVE_MS}: keeps an idle connection open.
     *
     * @throws IOException when the reader went away (the following ends)
     */
    void keepAlive() throws IOException;
  }

  private final RoomKey key;
  private final RoomWatchers watchers;
  private final TicketPolls tickets;

  TicketFollower(RoomKey key, RoomWatchers watchers, TicketPolls tickets) {
    this.key = key;
    this.watchers = watchers;
    this.tickets = tickets;
  }

  void follow(String ticket, Ticket first, BooleanSupplier closing, Sink sink)
      throws IOException, InterruptedException {
    long start = System.currentTimeMillis();
    if (first.status().isFinal()) {
      sink.send(first);
      return;
    }
    TicketWatch watch = new TicketWatch(ticket, first, tickets.record(key, first), closing);
    watchers.register(key, watch);
    try {
      sink.send(first);
      // The first keep-alive comes at a random point of the second half of the period, so that
      // streams opened together (a page reloaded by a crowd) do not all write at the same moment
      // every period thereafter.
      long lastSent = start - ThreadLocalRandom.current().nextLong(KEEP_ALIVE_MS / 2);
      while (true) {
        long now = System.currentTimeMillis();
        long until = Math.min(keepAliveAt(lastSent), start + MAX_STREAM_MS);
        Ticket view = watch.await(until - now);
        if (watch.ended()) {
          return;
        }
        now = System.currentTimeMillis();
        if (view != null) {
          sink.send(view);
          lastSent = now;
          if (view.status().isFinal()) {
            return;
          }
        }
        if (now - start >= MAX_STREAM_MS) {
          return;
        }
        if (view == null && now - lastSent >= KEEP_ALIVE_MS) {
          sink.keepAlive();
          lastSent = now;
        }
      }
    } finally {
      watchers.unregister(key, watch);
    }
  }

  /**
   * When the keep-alive after a write at {@code lastSent} is due (epoch ms): {@link #KEEP_ALIVE_MS}
   * later, rounded up to a multiple of {@link #KEEP_ALIVE_GRID_MS}. The idle streams of an instance
   * then wake together, in batches (about 25 every 20 ms at 19,000 streams), instead of one by one:
   * each wake of the timer thread and of a carrier thread serves a batch. At 19,000 idle streams
   * those wakes were most of their CPU (0.167 cores, 0.143 on this grid). A batch stays short
   * beside a join: on a grid of 100 or 250 ms the batches (127 or 317 writes) made the joins' 99th
   * percentile 2 to 5 times longer.
   */
  static long keepAliveAt(long lastSent) {
    long due = lastSent + KEEP_ALIVE_MS;
    return Math.ceilDiv(due, KEEP_ALIVE_GRID_MS) * KEEP_ALIVE_GRID_MS;
  }

  /**
   * Waits up to {@code waitMs} for the ticket's status or position to differ from {@code first}.
   *
   * @return the ticket as it changed, or {@code first} when nothing changed in time
   */
  Ticket awaitChange(String ticket, Ticket first, long waitMs) throws InterruptedException {
    if (first.status().isFinal() || waitMs <= 0) {
      return first;
    }
    long until = System.currentTimeMillis() + waitMs;
    TicketWatch watch = new TicketWatch(ticket, first, tickets.record(key, first), () -> false);
    watchers.register(key, watch);
    try {
      while (true) {
        Ticket view = watch.await(until - System.currentTimeMillis());
        if (view == null) {
          return first;
        }
        if (view.status() != first.status() || view.position() != first.position()) {
          return view;
        }
      }
    } finally {
      watchers.unregister(key, watch);
    }
  }
}
