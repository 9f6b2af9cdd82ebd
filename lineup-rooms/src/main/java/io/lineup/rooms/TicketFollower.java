package io.lineup.rooms;

import java.io.IOException;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * Follows one ticket for a stream of its changes ({@link Room#follow}): tells the sink the ticket
 * each time its status, position or ETA changes, and a last time when it is admitted (with the
 * pass) or gone, after which the following ends. It also ends after {@value #MAX_STREAM_MS} ms (the
 * client reconnects) or once the caller is closing. Asks for a keep-alive when nothing was told for
 * {@value #KEEP_ALIVE_MS} ms.
 */
public final class TicketFollower {
  /** How often the ticket is read when no admission on this instance wakes the follower, in ms. */
  public static final long CHECK_INTERVAL_MS = 20;

  /** A keep-alive is asked for when nothing was told this long, in ms. */
  public static final long KEEP_ALIVE_MS = 15_000;

  /** Longest following, in ms: 1 hour. */
  public static final long MAX_STREAM_MS = 3_600_000;

  /** How often following counts as a poll of the ticket (keeping its place), in ms. */
  static final long TOUCH_INTERVAL_MS = 1_000;

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

  private final Room room;
  private final AdmissionTicker admissions;

  TicketFollower(Room room, AdmissionTicker admissions) {
    this.room = room;
    this.admissions = admissions;
  }

  /** What counts as a change: what a page shows, without the suggested poll interval. */
  private record Signature(TicketStatus status, long position, Long etaMs) {
    static Signature of(Ticket t) {
      return new Signature(
          t.status(), t.position(), t.eta() == null ? null : t.eta().point().toMillis());
    }
  }

  void follow(String ticket, Ticket first, BooleanSupplier closing, Sink sink)
      throws IOException, InterruptedException {
    long start = System.currentTimeMillis();
    long lastSent = start;
    long lastTouch = start;
    admissions.watch(ticket);
    try {
      Signature sent = Signature.of(first);
      sink.send(first);
      if (first.status().isFinal()) {
        return;
      }
      while (!closing.getAsBoolean()) {
        long now = System.currentTimeMillis();
        if (now - start > MAX_STREAM_MS) {
          return;
        }
        admissions.awaitChange(ticket, CHECK_INTERVAL_MS);
        now = System.currentTimeMillis();
        Ticket view;
        if (now - lastTouch >= TOUCH_INTERVAL_MS) {
          view = room.poll(ticket);
          lastTouch = now;
        } else {
          view = room.ticket(ticket);
        }
        Signature sig = Signature.of(view);
        if (!Objects.equals(sig, sent)) {
          sink.send(view);
          sent = sig;
          lastSent = now;
          if (view.status().isFinal()) {
            return;
          }
        } else if (now - lastSent >= KEEP_ALIVE_MS) {
          sink.keepAlive();
          lastSent = now;
        }
      }
    } finally {
      admissions.unwatch(ticket);
    }
  }
}
