package io.lineup.client;

import java.time.Instant;

/**
 * 429 {@code deadline_unreachable}: a task's {@code start_by}/{@code finish_by} or a job's {@code
 * start_by} cannot be met by the line's ETA, or has passed. Nothing was queued. {@link
 * #earliestStartAt()} says the earliest start the line could promise at the submit, so a caller can
 * decide at once whether a later deadline is worth submitting.
 */
public class DeadlineUnreachableException extends LineupClientException {
  private final Instant earliestStartAt;

  DeadlineUnreachableException(
      String field, String message, String requestId, Instant earliestStartAt) {
    super(429, "deadline_unreachable", field, message, requestId);
    this.earliestStartAt = earliestStartAt;
  }

  /**
   * The earliest start the line could promise at the submit (the high end of its ETA band, or the
   * due time), by the server's clock; null when the answer did not carry it.
   */
  public Instant earliestStartAt() {
    return earliestStartAt;
  }
}
