package io.lineup.api.resource;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Where a dispatch task is in its life: the {@code status} of a task on the wire. */
public enum TaskStatus {
  /** Waiting: in line, delayed, or waiting for a retry. */
  @JsonProperty("queued")
  QUEUED,
  /** A request is in flight. */
  @JsonProperty("running")
  RUNNING,
  /** The endpoint answered 2xx. */
  @JsonProperty("succeeded")
  SUCCEEDED,
  /** An outcome that is not retried, or out of attempts. */
  @JsonProperty("failed")
  FAILED,
  /** It waited longer than the endpoint's line timeout and was never sent. */
  @JsonProperty("timed_out")
  TIMED_OUT,
  /** Cancelled by its caller. */
  @JsonProperty("cancelled")
  CANCELLED;

  /** Whether the task has ended. */
  public boolean ended() {
    return this != QUEUED && this != RUNNING;
  }
}
