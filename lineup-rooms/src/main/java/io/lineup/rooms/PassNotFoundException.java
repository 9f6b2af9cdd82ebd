package io.lineup.rooms;

/** The room has no pass of this id (its ticket is unknown or was admitted at another time). */
public final class PassNotFoundException extends RoomException {
  /**
   * @param room the pass's room
   * @param passId the pass id asked for
   */
  public PassNotFoundException(RoomKey room, String passId) {
    super("no pass " + passId + " in room " + room);
  }
}
