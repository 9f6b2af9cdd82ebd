package io.lineup.core.model;

import java.time.Duration;
import java.util.List;

/**
 * A durable publish ({@link Durability}) was written, but fewer replicas than asked acknowledged it
 * within the timeout (or, on Redis 7.2+, the master did not write it to its disk in time). The jobs
 * ARE in the queue and will be delivered; they are only not yet known to be safe from the loss of
 * the master. Publishing them again would create second jobs unless they carry their own ids.
 */
public class ReplicationTimeoutException extends LineupException {
  private final transient List<PublishResult> results;
  private final int requested;
  private final long acknowledged;

  /**
   * @param results what the publish did, in job order
   * @param requested replicas asked for
   * @param acknowledged replicas that acknowledged within the timeout
   * @param timeout the wait
   * @param detail what was missing, in words
   */
  public ReplicationTimeoutException(
      List<PublishResult> results,
      int requested,
      long acknowledged,
      Duration timeout,
      String detail) {
    super(
        "The jobs were written, but "
            + detail
            + " within "
            + timeout.toMillis()
            + " ms; they are delivered as usual, yet could be lost if the master failed now");
    this.results = List.copyOf(results);
    this.requested = requested;
    this.acknowledged = acknowledged;
  }

  /** What the publish did (ids, states), in job order: the jobs exist. */
  public List<PublishResult> results() {
    return results;
  }

  /** Replicas asked for. */
  public int requested() {
    return requested;
  }

  /** Replicas that acknowledged within the timeout (Redis's answer to {@code WAIT}). */
  public long acknowledged() {
    return acknowledged;
  }
}
