package io.lineup.api;

/**
 * The JSON names of the deadlines a dispatch task or a queue job may carry at submit, and of the
 * field a {@link ErrorCode#DEADLINE_UNREACHABLE} answer adds. A deadline is absolute (epoch
 * milliseconds, like every time of the API) or relative to the submit (milliseconds); a request
 * gives at most one form of each.
 */
public final class DeadlineFields {
  /** The latest start (the request sent, the job leased), in milliseconds since the epoch. */
  public static final String START_BY = "start_by";

  /** The latest start as a time from the submit, in milliseconds. */
  public static final String START_WITHIN_MS = "start_within_ms";

  /** A task only: the latest end of its request, in milliseconds since the epoch. */
  public static final String FINISH_BY = "finish_by";

  /** A task only: the latest end of its request as a time from the submit, in milliseconds. */
  public static final String FINISH_WITHIN_MS = "finish_within_ms";

  /**
   * In a {@code deadline_unreachable} answer: the earliest start the line could promise at the
   * submit, in milliseconds since the epoch (the high end of its ETA band).
   */
  public static final String EARLIEST_START_AT = "earliest_start_at";

  private DeadlineFields() {}
}
