package io.lineup.rooms;

/** A join of a room of method {@code reject} while it is full or anyone waits. */
public final class RoomFullException extends RoomException {
  private final long active;

  /**
   * @param active the passes valid at the time
   */
  public RoomFullException(long active) {
    super("the room is full; try again later");
    this.active = active;
  }

  /** The passes valid at the time. */
  public long active() {
    return active;
  }
}
