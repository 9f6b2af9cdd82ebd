package io.lineup.rooms;

/**
 * What the room service keeps about a ticket that waits (in the record store {@code room-polls}):
 * its room, its last poll, when it joined and its priority, so that its view needs only its
 * position from the engine. Stored as text, {@code <room> <last poll ms> <joined ms> <priority>}; a
 * ticket dropped for not polling is marked {@code abandoned <room> <at ms>} instead, and one ended
 * because its room was deleted {@code room_deleted <room> <generation> <at ms>} (markers are kept
 * {@link Rooms#MARKER_KEEP_MS}). Records written by earlier versions have only the room and the
 * last poll.
 *
 * @param room the ticket's room, {@code namespace/name}
 * @param lastPollAt the last poll, epoch ms
 * @param joinedAt when the ticket joined, epoch ms (0 when the record does not say)
 * @param priority the ticket's priority (meaningful only when {@code joinedAt} is set)
 */
record PollRecord(String room, long lastPollAt, long joinedAt, int priority) {
  private static final String ABANDONED = "abandoned ";
  private static final String ROOM_DELETED = "room_deleted ";

  /** The record of a waiting ticket, or null for a marker or unreadable text. */
  static PollRecord parse(String text) {
    if (text.startsWith(ABANDONED) || text.startsWith(ROOM_DELETED)) {
      return null;
    }
    String[] parts = text.split(" ");
    try {
      if (parts.length >= 4) {
        return new PollRecord(
            parts[0],
            Long.parseLong(parts[1]),
            Long.parseLong(parts[2]),
            Integer.parseInt(parts[3]));
      }
      return parts.length == 2 ? new PollRecord(parts[0], Long.parseLong(parts[1]), 0, 0) : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** Whether the text marks an abandoned ticket. */
  static boolean isAbandonedMarker(String text) {
    return text.startsWith(ABANDONED);
  }

  /** Whether the text marks a ticket ended because its room was deleted. */
  static boolean isRoomDeletedMarker(String text) {
    return text.startsWith(ROOM_DELETED);
  }

  /** Whether the text is a marker of either kind (not the record of a waiting ticket). */
  static boolean isMarker(String text) {
    return isAbandonedMarker(text) || isRoomDeletedMarker(text);
  }

  /** When a marker was written, epoch ms: its last field. */
  static long markedAt(String marker) {
    return Long.parseLong(marker.substring(marker.lastIndexOf(' ') + 1));
  }

  /** The room a marker names. */
  static String markedRoom(String marker) {
    return marker.split(" ")[1];
  }

  /**
   * The marker of a ticket ended at {@code at} (epoch ms) because generation {@code generation} of
   * its room was deleted.
   */
  static String roomDeleted(RoomKey key, long generation, long at) {
    return ROOM_DELETED + key + " " + generation + " " + at;
  }

  /** The marker of a ticket abandoned at {@code at} (epoch ms). */
  static String abandoned(RoomKey key, long at) {
    return ABANDONED + key + " " + at;
  }

  /** Whether the record knows when the ticket joined and its priority. */
  boolean knowsTicket() {
    return joinedAt > 0;
  }

  /** The same record polled at {@code now} (epoch ms). */
  PollRecord polledAt(long now) {
    return new PollRecord(room, now, joinedAt, priority);
  }

  /** The stored text. */
  String text() {
    return knowsTicket()
        ? room + " " + lastPollAt + " " + joinedAt + " " + priority
        : room + " " + lastPollAt;
  }
}
