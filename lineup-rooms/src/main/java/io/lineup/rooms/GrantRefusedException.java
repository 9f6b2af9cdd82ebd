package io.lineup.rooms;

/** The grant a join presented is unknown, used, expired, or for another room or subject. */
public final class GrantRefusedException extends RoomException {
  private final String field;

  /**
   * @param field the join's field at fault: {@code grant} or {@code subject}
   * @param message why the grant was refused
   */
  public GrantRefusedException(String field, String message) {
    super(message);
    this.field = field;
  }

  /** The join's field at fault: {@code grant} or {@code subject}. */
  public String field() {
    return field;
  }
}
