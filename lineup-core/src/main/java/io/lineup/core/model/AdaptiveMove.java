package io.lineup.core.model;

/**
 * What one reported signal did to a queue's adaptive concurrency limit ({@link
 * io.lineup.core.AdaptiveLimits#report}).
 *
 * @param direction how the limit moved
 * @param limit the limit in force after the report (0 when the queue has none)
 * @param reason the limit's last reason (this report's when it moved or held), or empty
 */
public record AdaptiveMove(Direction direction, int limit, String reason) {
  /** How a report moved the limit. */
  public enum Direction {
    /** Raised by 1: the window before was fast enough and used. */
    UP,
    /** Lowered: a 429 or 503, or a window slower than the target. */
    DOWN,
    /** Not moved. */
    NONE,
    /** Not moved, but a {@code Retry-After} now holds the queue. */
    HOLD,
    /** The queue has no adaptive limit. */
    OFF
  }
}
