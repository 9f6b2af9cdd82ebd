package io.lineup.core.model;

/** No schedule of that name in the queue (never upserted, or deleted). */
public class ScheduleNotFoundException extends LineupException {
  private final QueueName queue;
  private final String name;

  /**
   * @param queue the queue asked
   * @param name the schedule name asked
   */
  public ScheduleNotFoundException(QueueName queue, String name) {
    super("No schedule " + name + " in queue " + queue);
    this.queue = queue;
    this.name = name;
  }

  /** The queue asked. */
  public QueueName queue() {
    return queue;
  }

  /** The schedule name asked. */
  public String name() {
    return name;
  }
}
