package io.lineup.core;

import io.lineup.core.model.LeasedJob;

/** Work done for one job by a {@link Worker}. */
@FunctionalInterface
public interface JobHandler {
  /**
   * Handles one job. Returning acks the job (the result, when not null, is kept for the retention
   * window); throwing nacks it with the exception as error text, retried by the queue's backoff, or
   * after {@link RetryLaterException#delay()} when that is what was thrown. Throwing {@link
   * ReleaseJobException} gives the job back unused (its place in line and its attempt kept).
   *
   * <p>The lease is extended while this runs. When the lease is lost (job cancelled, TTL passed)
   * the handler's thread is interrupted.
   */
  byte[] handle(LeasedJob job) throws Exception;
}
