package io.lineup.consumer;

import java.time.Duration;

/**
 * How a consumer waits for work after a lease call found none: on the queue's wake-up signal, for a
 * source that has one, or for the time the source advised. One loop thread uses it, then closes it.
 */
public interface IdleWait extends AutoCloseable {
  /**
   * Waits until work may be ready.
   *
   * @param retryAfter the last reply's advice (null for none)
   * @throws InterruptedException when the consumer closes
   */
  void await(Duration retryAfter) throws InterruptedException;

  /** Ends what the waits left behind; by default nothing. */
  @Override
  default void close() {}

  /**
   * Waits only for the advised time: for a source whose lease calls wait for jobs themselves (an
   * HTTP long-poll), so an empty answer without advice calls again at once.
   */
  static IdleWait advisedOnly() {
    return retryAfter -> {
      if (retryAfter != null && retryAfter.isPositive()) {
        Thread.sleep(retryAfter);
      }
    };
  }
}
