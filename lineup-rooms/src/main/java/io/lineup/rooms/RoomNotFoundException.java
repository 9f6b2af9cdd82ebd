package io.lineup.rooms;

/** There is no room of this name in this namespace. */
public final class RoomNotFoundException extends RoomException {
  private final RoomKey room;

  /**
   * @param room the room asked for
   */
  public RoomNotFoundException(RoomKey room) {
    super("no room " + room.name() + " in namespace " + room.namespace());
    this.room = room;
  }

  /** The room asked for. */
  public RoomKey room() {
    return room;
  }
}
