package io.lineup.client;

import java.time.Duration;

/** An answer that says to try again later, and when: 429 and 503. */
public class RetryableException extends LineupClientException {
  private final Duration retryAfter;

  RetryableException(
      int status,
      String code,
      String field,
      String message,
      String requestId,
      Duration retryAfter) {
    super(status, code, field, message, requestId);
    this.retryAfter = retryAfter;
  }

  /** How long to wait before trying again, as the server said it (at least 1 ms). */
  public Duration retryAfter() {
    return retryAfter;
  }
}
