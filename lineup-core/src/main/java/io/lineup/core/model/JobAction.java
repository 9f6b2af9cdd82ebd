package io.lineup.core.model;

import java.util.Locale;

/**
 * What {@code Lineup.actOnJobs} can do to jobs; a job not in a state the action takes is skipped.
 */
public enum JobAction {
  /** A ready, delayed or leased job becomes a cancelled tombstone, kept for retention. */
  CANCEL,
  /**
   * A job in any state is removed with its record at once (an unfinished one is archived as
   * cancelled first, when archiving is on); a leased job's ack then answers not found.
   */
  DELETE,
  /** A delayed job joins the ready line now, at the back of its priority, as if it fell due. */
  RUN_NOW,
  /** A dead job goes back to the line with its attempts reset. */
  RESPAWN;

  /** The name the scripts and the HTTP API use, e.g. {@code run_now}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The action of a wire name ({@code run-now} reads as {@code run_now}), case-insensitive.
   *
   * @throws InvalidArgumentException naming {@code action} when there is no such action
   */
  public static JobAction of(String name) {
    if (name != null) {
      String wire = name.replace('-', '_');
      for (JobAction action : values()) {
        if (action.wireName().equalsIgnoreCase(wire)) {
          return action;
        }
      }
    }
    throw new InvalidArgumentException(
        "action", "must be one of cancel, delete, run_now, respawn; got " + name);
  }
}
