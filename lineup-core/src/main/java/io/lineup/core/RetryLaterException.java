package io.lineup.core;

import java.time.Duration;

/** Thrown by a {@link JobHandler} to retry the job after a given delay instead of the backoff. */
public class RetryLaterException extends Exception {
  private final Duration delay;

  public RetryLaterException(String message, Duration delay) {
    super(message);
    this.delay = delay;
  }

  /** How long the job waits before its next attempt. */
  public Duration delay() {
    return delay;
  }
}
