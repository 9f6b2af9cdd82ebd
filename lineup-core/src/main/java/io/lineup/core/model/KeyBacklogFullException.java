package io.lineup.core.model;

/**
 * A publish to a fair queue would have brought a fairness key past its most waiting jobs (the
 * queue's {@code key_max_waiting} setting, or the key's own {@link KeySettings#maxWaiting()}): the
 * call wrote nothing. Every job of the call counts toward the limit, including a job whose id or
 * unique key turns out to be taken.
 */
public class KeyBacklogFullException extends LineupException {
  private final QueueName queue;
  private final String key;
  private final long maxWaiting;
  private final long waiting;

  /**
   * @param queue the queue published to
   * @param key the fairness key that is full
   * @param maxWaiting the key's limit: most jobs waiting
   * @param waiting the key's jobs waiting when the publish ran
   */
  public KeyBacklogFullException(QueueName queue, String key, long maxWaiting, long waiting) {
    super(
        "Key '"
            + key
            + "' of queue "
            + queue
            + " has "
            + waiting
            + " jobs waiting and may have at most "
            + maxWaiting
            + " (max_waiting): nothing was published");
    this.queue = queue;
    this.key = key;
    this.maxWaiting = maxWaiting;
    this.waiting = waiting;
  }

  /** The queue published to. */
  public QueueName queue() {
    return queue;
  }

  /** The fairness key that is full. */
  public String key() {
    return key;
  }

  /** The key's limit: most jobs waiting. */
  public long maxWaiting() {
    return maxWaiting;
  }

  /** The key's jobs waiting when the publish ran. */
  public long waiting() {
    return waiting;
  }
}
