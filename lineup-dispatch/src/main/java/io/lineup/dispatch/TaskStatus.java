package io.lineup.dispatch;

import java.util.Locale;

/** Where a task stands: waiting, being sent, or how it ended. */
public enum TaskStatus {
  /** Waiting in line (delayed or due). */
  QUEUED,
  /** A request is in flight. */
  RUNNING,
  /** The target answered with a success. */
  SUCCEEDED,
  /** Out of attempts, or an answer not retried. */
  FAILED,
  /** Cancelled before it ended. */
  CANCELLED,
  /** Its line timeout or its record's time bound passed first. */
  TIMED_OUT;

  /** The lower-case name, as the API and callbacks show it. */
  public String json() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The status of an outcome stored in a task's record; an unknown one reads as succeeded. */
  static TaskStatus ofOutcome(String outcome) {
    for (TaskStatus status : values()) {
      if (status.json().equals(outcome)) {
        return status;
      }
    }
    return SUCCEEDED;
  }
}
