package io.lineup.api.resource;

/**
 * Where a job is in its life: the {@code state} of a job on the wire, spelled as the engine does.
 */
public enum JobState {
  /** Published with a delay, not yet due. */
  DELAYED,
  /** Due, waiting in the ready line. */
  READY,
  /** Held by a consumer until its lease deadline. */
  LEASED,
  /** Acknowledged; its record and result stay for the queue's retention. */
  DONE,
  /** Out of attempts; in the queue's dead letters. */
  DEAD,
  /** Cancelled before it finished. */
  CANCELLED,
  /** Its time-to-live passed before it finished. */
  EXPIRED;

  /** Whether the job will not run again (done, cancelled, expired). */
  public boolean finished() {
    return this == DONE || this == CANCELLED || this == EXPIRED;
  }
}
