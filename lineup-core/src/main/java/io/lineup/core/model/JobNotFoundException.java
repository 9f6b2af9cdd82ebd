package io.lineup.core.model;

/** The job id is unknown in that queue (never published, or its record is past retention). */
public class JobNotFoundException extends LineupException {
  public JobNotFoundException(QueueName queue, String id) {
    super("No job " + id + " in queue " + queue);
  }
}
