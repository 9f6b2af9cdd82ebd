package io.lineup.client;

import java.util.Locale;

/** How a waiting room orders and admits its tickets. */
public enum QueueingMethod {
  /** By priority, then arrival. */
  FIFO,
  /** The pre-queue enters the line in a random order at the event start; then FIFO. */
  RANDOM,
  /** No limit: everyone is admitted at once (passes are still issued). */
  PASSTHROUGH,
  /** A join is refused with {@link RoomFullException} while anyone waits or the room is full. */
  REJECT;

  /** The API's text, e.g. {@code fifo}. */
  String json() {
    return name().toLowerCase(Locale.ROOT);
  }
}
