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
  REVOKED;

  /** The name callers see: lower case. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
