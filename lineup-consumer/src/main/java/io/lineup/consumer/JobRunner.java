package io.lineup.consumer;

/**
 * Runs one leased job on its own virtual thread.
 *
 * @param <J> the source's leased job
 */
@FunctionalInterface
public interface JobRunner<J> {
  /**
   * Runs the job. Returning acks it with the result; throwing hands the throwable to {@link
   * LeaseSource#fail}. The thread is interrupted when the job's lease is lost or the consumer
   * closes past its grace.
   *
   * @return the job's result (null for none)
   * @throws Exception to fail the job
   */
  byte[] run(J job) throws Exception;
}
