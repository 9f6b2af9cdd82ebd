package io.lineup.rooms;

/**
 * Who asks: what a join's and a grant's priority may be, and whom a grant names as its maker.
 *
 * @param admin whether the caller may do everything (joins then default to priority 0)
 * @param maxPriority the highest priority the caller may give (a join clamps it to -255..255)
 * @param id the caller's public id, recorded as a grant's maker
 */
public record Caller(boolean admin, int maxPriority, String id) {
  /** The operator: every priority, id {@code admin}. */
  public static final Caller ADMIN = new Caller(true, Integer.MAX_VALUE, "admin");
}
