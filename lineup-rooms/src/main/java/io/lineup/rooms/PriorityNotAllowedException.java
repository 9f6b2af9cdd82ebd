package io.lineup.rooms;

/** A join or a grant asked for a priority above what the caller (or the grant) allows. */
public final class PriorityNotAllowedException extends RoomException {
  private final int maxPriority;

  /**
   * @param asked the priority asked for
   * @param maxPriority the highest one allowed
   * @param allowedBy whose limit it is, for the message: {@code token} or {@code grant}
   */
  public PriorityNotAllowedException(int asked, int maxPriority, String allowedBy) {
    super("priority " + asked + " is above the " + allowedBy + "'s " + maxPriority);
    this.maxPriority = maxPriority;
  }

  /** The highest priority allowed. */
  public int maxPriority() {
    return maxPriority;
  }
}
