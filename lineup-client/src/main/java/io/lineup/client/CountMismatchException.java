package io.lineup.client;

import io.lineup.api.ErrorCode;

/**
 * 409 {@code count_mismatch}: an action on all jobs matching a filter was refused, nothing done,
 * because the filter matches {@link #count()} jobs, not the count the call confirmed.
 */
public class CountMismatchException extends LineupClientException {
  private final long count;

  CountMismatchException(String field, String message, String requestId, long count) {
    super(409, ErrorCode.COUNT_MISMATCH.code(), field, message, requestId);
    this.count = count;
  }

  /** How many jobs the filter matches now, or -1 when the server did not say. */
  public long count() {
    return count;
  }
}
