package io.lineup.dispatch;

import io.lineup.core.model.JobInfo;
import io.lineup.core.model.QueueName;
import java.util.Optional;

/**
 * Where tasks are found once their Redis record is gone: the server's SQL archive when it is on.
 * {@link #redisOnly} answers from Redis alone.
 */
public interface TaskArchive {
  /**
   * Called before a task is published to its endpoint's queue, so the archive follows the queue.
   */
  void beforePublish(QueueName queue);

  /** A task's record: in Redis, else in the archive; empty when neither has it. */
  Optional<JobInfo> find(QueueName queue, String id);

  /** No archive: tasks are found in Redis only. */
  static TaskArchive redisOnly(io.lineup.core.Lineup lineup) {
    return new TaskArchive() {
      @Override
      public void beforePublish(QueueName queue) {}

      @Override
      public Optional<JobInfo> find(QueueName queue, String id) {
        return lineup.get(queue, id);
      }
    };
  }
}
