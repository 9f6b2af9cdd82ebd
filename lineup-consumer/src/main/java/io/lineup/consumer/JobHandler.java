package io.lineup.consumer;

/**
 * Work done for one leased job: the handler of the engine's {@code Worker}, the client's {@code
 * RemoteWorker} and the command line's consumer alike. Each job runs on its own virtual thread.
 *
 * @param <J> the leased job the handler is given (the engine's or the client's)
 */
@FunctionalInterface
public interface JobHandler<J> {
  /**
   * Handles one job. Returning acks the job (the result, when not null, is kept for the retention
   * window); throwing nacks it with the exception as error text, retried by the queue's backoff, or
   * after {@link RetryLaterException#delay()} when that is what was thrown. The engine's worker
   * also takes its {@code ReleaseJobException}, which gives the job back unused.
   *
   * <p>The lease is extended while this runs. When the lease is lost (job cancelled, TTL passed) or
   * the consumer closes past its grace, the handler's thread is interrupted.
   *
   * @return the job's result (null for none)
   * @throws Exception to fail the job
   */
  byte[] handle(J job) throws Exception;
}
