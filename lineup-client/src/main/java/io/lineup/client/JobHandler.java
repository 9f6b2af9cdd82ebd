package io.lineup.client;

import io.lineup.api.resource.LeasedJob;

/**
 * Work done for one job by a {@link RemoteWorker}; the same shape as the embedded engine's {@code
 * JobHandler}.
 */
@FunctionalInterface
public interface JobHandler {
  /**
   * Handles one job. Returning acks the job: a result that is one JSON value in UTF-8 is kept as it
   * is, other bytes are kept as a JSON string of their UTF-8 text, null keeps none. Throwing nacks
   * it with the exception as error text, retried by the queue's backoff, or after {@link
   * RetryLaterException#delay()} when that is what was thrown.
   *
   * <p>The lease is extended while this runs. When the lease is lost (job cancelled, TTL passed)
   * the handler's thread is interrupted.
   */
  byte[] handle(LeasedJob job) throws Exception;
}
