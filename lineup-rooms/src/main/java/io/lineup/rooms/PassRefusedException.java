package io.lineup.rooms;

import io.lineup.pass.PassRejectedException;

/**
 * The online check refused a pass: what the offline check refuses, or revoked, or its ticket no
 * longer holds its slot ({@link PassRejectedException.Reason#REVOKED}).
 */
public final class PassRefusedException extends RoomException {
  private final PassRejectedException.Reason reason;

  /**
   * @param reason why, as the offline check names it
   * @param message why, for the caller
   */
  public PassRefusedException(PassRejectedException.Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  /** Why, as the offline check names it. */
  public PassRejectedException.Reason reason() {
    return reason;
  }
}
