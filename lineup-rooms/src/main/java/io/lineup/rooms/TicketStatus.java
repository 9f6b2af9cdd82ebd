package io.lineup.rooms;

import java.util.Locale;

/** Where a ticket stands. */
public enum TicketStatus {
  /** Held beside the line until the room's event starts. */
  PRE_QUEUE,
  /** In line, with a position and an ETA. */
  WAITING,
  /** Admitted: holds a pass. */
  ADMITTED,
  /** No longer in the room ({@link GoneReason} says why). */
  GONE;

  /** The name callers see: lower case ({@code pre_queue}, {@code waiting}...). */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Whether the ticket will not change any more (admitted or gone). */
  public boolean isFinal() {
    return this == ADMITTED || this == GONE;
  }
}
