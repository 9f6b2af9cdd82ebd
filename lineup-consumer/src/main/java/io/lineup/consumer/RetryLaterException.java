package io.lineup.consumer;

import java.time.Duration;

/** Thrown by a {@link JobHandler} to retry its job after a given delay instead of the backoff. */
public class RetryLaterException extends Exception {
  private final Duration delay;

  /**
   * @param message why, kept as the job's last error
   * @param delay how long until the retry (the engine and the server take 0 to ten years)
   */
  public RetryLaterException(String message, Duration delay) {
    super(message);
    this.delay = delay;
  }

  /** How long the job waits before its next attempt. */
  public Duration delay() {
    return delay;
  }
}
