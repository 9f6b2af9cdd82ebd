package io.lineup.rooms;

/**
 * A request of a waiting room that cannot be done as asked; each subclass names one reason, which a
 * caller (the server's error mapping) tells apart by type.
 */
public abstract sealed class RoomException extends RuntimeException
    permits GrantRefusedException,
        MalformedIdException,
        NotRenewableException,
        PassNotFoundException,
        PassRefusedException,
        PriorityNotAllowedException,
        RoomFullException,
        RoomNotFoundException,
        TicketNotFoundException {
  /**
   * @param message what went wrong, for the caller
   */
  RoomException(String message) {
    super(message);
  }
}
