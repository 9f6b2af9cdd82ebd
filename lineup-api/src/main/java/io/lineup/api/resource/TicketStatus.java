package io.lineup.api.resource;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Where a waiting-room ticket is: the {@code status} of a ticket on the wire. */
public enum TicketStatus {
  /** Joined before the room's event start; enters the line at the start. */
  @JsonProperty("pre_queue")
  PRE_QUEUE,
  /** In line, with a position and an ETA; poll it to keep the place. */
  @JsonProperty("waiting")
  WAITING,
  /** Admitted: it holds a pass. */
  @JsonProperty("admitted")
  ADMITTED,
  /**
   * Left, released, expired, abandoned or its room deleted ({@link Ticket#reason()} says which).
   */
  @JsonProperty("gone")
  GONE
}
