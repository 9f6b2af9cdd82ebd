package io.lineup.core.model;

/** The job already finished (done, cancelled or expired), so it cannot be cancelled. */
public class JobFinishedException extends LineupException {
  private final JobState state;

  public JobFinishedException(QueueName queue, String id, JobState state) {
    super("Job " + id + " in queue " + queue + " has already finished: " + state);
    this.state = state;
  }

  public JobState state() {
    return state;
  }
}
