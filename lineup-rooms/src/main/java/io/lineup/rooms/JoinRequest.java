package io.lineup.rooms;

/**
 * A join of a room's line.
 *
 * @param caller who joins (their highest priority is the default one)
 * @param grant the id of a single-use priority grant, or null
 * @param subject who the grant was made for, or null
 * @param priority a priority at or below the allowed one, or null for the allowed one
 */
public record JoinRequest(Caller caller, String grant, String subject, Integer priority) {
  /** A plain join of this caller: no grant, the caller's own priority. */
  public static JoinRequest of(Caller caller) {
    return new JoinRequest(caller, null, null, null);
  }
}
