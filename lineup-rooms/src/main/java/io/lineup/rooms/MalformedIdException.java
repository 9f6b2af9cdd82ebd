package io.lineup.rooms;

/** A ticket or pass id that does not have the form of one (nothing was looked up). */
public final class MalformedIdException extends RoomException {
  private final String field;

  /**
   * @param field what the id names: {@code ticket} or {@code jti}
   * @param rule what such an id is
   */
  public MalformedIdException(String field, String rule) {
    super(rule);
    this.field = field;
  }

  /** What the id names: {@code ticket} or {@code jti}. */
  public String field() {
    return field;
  }
}
