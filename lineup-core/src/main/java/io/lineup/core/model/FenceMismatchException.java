package io.lineup.core.model;

import java.util.OptionalLong;

/**
 * A publish bound to a fence found the queue holding another one, or none: the call wrote nothing
 * (no job, no unique-key lock, no event). A fence is a number a queue's owner sets ({@code
 * Lineup.setFence}) to say which of its incarnations publishes may still write into; a publisher
 * that gets this exception holds a stale view and should read the owner's state again.
 */
public class FenceMismatchException extends LineupException {
  private final QueueName queue;
  private final long expected;
  private final OptionalLong current;

  /**
   * @param queue the queue published to
   * @param expected the fence the publish was bound to
   * @param current the queue's fence at the time of the publish, empty when it had none
   */
  public FenceMismatchException(QueueName queue, long expected, OptionalLong current) {
    super(
        "Queue "
            + queue
            + " holds "
            + (current.isPresent() ? "fence " + current.getAsLong() : "no fence")
            + ", not the expected "
            + expected
            + ": nothing was published");
    this.queue = queue;
    this.expected = expected;
    this.current = current;
  }

  /** The queue published to. */
  public QueueName queue() {
    return queue;
  }

  /** The fence the publish was bound to. */
  public long expected() {
    return expected;
  }

  /** The queue's fence when the publish ran, empty when the queue had none. */
  public OptionalLong current() {
    return current;
  }
}
