package io.lineup.client;

import io.lineup.api.ErrorCode;
import io.lineup.api.resource.JobState;

/** 409 {@code job_finished}: the job to cancel already finished; {@link #state()} says how. */
public class JobFinishedException extends LineupClientException {
  private final JobState state;

  JobFinishedException(String field, String message, String requestId, JobState state) {
    super(409, ErrorCode.JOB_FINISHED.code(), field, message, requestId);
    this.state = state;
  }

  /** How the job finished, or null when the server did not say. */
  public JobState state() {
    return state;
  }
}
