package io.lineup.rooms;

import java.util.Locale;

/** Why a ticket is no longer in its room. */
public enum GoneReason {
  /** Its holder gave the admitted slot back. */
  RELEASED,
  /** Its pass expired. */
  EXPIRED,
  /** It was dropped for not polling within the room's grace. */
  ABANDONED,
  /** Its holder left the line. */
  LEFT,
  /** Its pass was revoked (which freed its slot). */
  REVOKED,
  /**
   * Its room was deleted (wire name {@code room_deleted}); the ticket reads so for an hour after
   * the delete, the time the room service keeps its markers.
   */
  ROOM_DELETED;

  /** The name callers see: lower case ({@code room_deleted} for {@link #ROOM_DELETED}). */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
