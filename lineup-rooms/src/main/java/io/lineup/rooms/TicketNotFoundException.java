package io.lineup.rooms;

/** The room has no ticket of this id (never had, or forgot it long ago). */
public final class TicketNotFoundException extends RoomException {
  /**
   * @param room the ticket's room
   * @param ticket the ticket id asked for
   */
  public TicketNotFoundException(RoomKey room, String ticket) {
    super("no ticket " + ticket + " in room " + room);
  }
}
