package io.lineup.rooms;

/** A pass renewal the room does not allow, or of a ticket that holds no pass (any more). */
public final class NotRenewableException extends RoomException {
  /**
   * @param message why not
   */
  public NotRenewableException(String message) {
    super(message);
  }
}
