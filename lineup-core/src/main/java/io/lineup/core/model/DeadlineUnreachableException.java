package io.lineup.core.model;

import java.time.Instant;

/**
 * A job's {@link NewJob#startBy start-by} time cannot be met: the high end of its queue's ETA band
 * for the place it would take (the back of the ready line) falls after it, or it has passed.
 * Nothing was written.
 */
public class DeadlineUnreachableException extends LineupException {
  private final Instant earliestStartAt;
  private final Instant startBy;
  private final int index;

  /**
   * @param index the job's place in its batch (0 for a single publish)
   * @param startBy the start-by time asked for
   * @param earliestStartAt the earliest start-by time the queue would accept now: the reading's
   *     time plus the high end of the ETA band
   */
  public DeadlineUnreachableException(int index, Instant startBy, Instant earliestStartAt) {
    super(
        "startBy: "
            + startBy
            + " cannot be met; the line could start the job by "
            + earliestStartAt
            + " at the latest");
    this.startBy = startBy;
    this.index = index;
    this.earliestStartAt = earliestStartAt;
  }

  /** The earliest start-by time the queue would have accepted (epoch instant). */
  public Instant earliestStartAt() {
    return earliestStartAt;
  }

  /** The refused job's place in its batch (0 for a single publish). */
  public int index() {
    return index;
  }

  /** The start-by time that was refused. */
  public Instant startBy() {
    return startBy;
  }
}
