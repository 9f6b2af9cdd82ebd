package io.lineup.client;

import java.util.Locale;

/** Where a waiting-room ticket is. */
public enum TicketStatus {
  /** Joined before the room's event start; enters the line at the start. */
  PRE_QUEUE,
  /** In line, with a position and an ETA; poll it to keep the place. */
  WAITING,
  /** Admitted: it holds a pass. */
  ADMITTED,
  /** Left, released, expired or abandoned ({@link Ticket#reason()} says which). */
  GONE;

  static TicketStatus read(String text) {
    if (text == null) {
      throw new IllegalArgumentException("a ticket has no status");
    }
    return valueOf(text.toUpperCase(Locale.ROOT));
  }
}
