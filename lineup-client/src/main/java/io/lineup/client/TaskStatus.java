package io.lineup.client;

import java.util.Locale;

/** Where a dispatch task is in its life. */
public enum TaskStatus {
  /** Waiting: in line, delayed, or waiting for a retry. */
  QUEUED,
  /** A request is in flight. */
  RUNNING,
  /** The endpoint answered 2xx. */
  SUCCEEDED,
  /** An outcome that is not retried, or out of attempts. */
  FAILED,
  /** It waited longer than the endpoint's line timeout and was never sent. */
  TIMED_OUT,
  /** Cancelled by its caller. */
  CANCELLED;

  /** Whether the task has ended. */
  public boolean ended() {
    return this != QUEUED && this != RUNNING;
  }

  /**
   * The status of the API's text, e.g. {@code timed_out}.
   *
   * @throws IllegalArgumentException for an unknown text
   */
  static TaskStatus read(String text) {
    if (text == null) {
      throw new IllegalArgumentException("a task has no status");
    }
    return valueOf(text.toUpperCase(Locale.ROOT));
  }
}
