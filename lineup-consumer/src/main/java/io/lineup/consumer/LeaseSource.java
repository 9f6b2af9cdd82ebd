package io.lineup.consumer;

import io.lineup.consumer.observation.ProcessContext;
import java.time.Duration;

/**
 * Where a {@link ConsumerLoop} leases jobs, extends their leases and settles them: the engine's
 * store, or a server over HTTP. The loop decides when to lease, extend, settle and give back; the
 * source only makes the calls. Every method but {@link #lease} and {@link #openIdleWait} may be
 * called from several threads at once.
 *
 * @param <J> the source's leased job
 */
public interface LeaseSource<J> {
  /**
   * Sends a lease call for up to {@code count} jobs. A source may carry settlements it deferred
   * (acks) on the call.
   *
   * @param count the most jobs to lease; 0 when no slot is free, to send deferred settlements only
   * @return the call, or null when {@code count} is 0 and nothing waits to be sent
   * @throws RuntimeException when the call could not be sent; the loop backs off and tries again
   */
  LeaseCall<J> lease(int count);

  /** How the loop's thread waits when a lease call found no job; closed when the loop stops. */
  IdleWait openIdleWait();

  /** The job's id, unique among the jobs this source leases at once. */
  String id(J job);

  /** The time the job's lease has left when it is leased (its time to run). */
  Duration leaseLeft(J job);

  /**
   * Extends the job's lease.
   *
   * @return the time the lease has left now
   * @throws RuntimeException which {@link #classify} names; {@link Failure#LOST} stops the job
   */
  Duration extend(J job);

  /**
   * Acks the job with its handler's result. A source may defer the ack to its next lease call or to
   * {@link #flush}.
   *
   * @throws RuntimeException which {@link #classify} names; {@link Failure#UNAVAILABLE} is retried
   */
  void ack(J job, byte[] result);

  /**
   * Settles a job whose handler threw {@code error}: a nack (with the delay the error names, if
   * any), or giving the job back when the error asks for that.
   *
   * @throws RuntimeException which {@link #classify} names; {@link Failure#UNAVAILABLE} is retried
   */
  void fail(J job, Throwable error);

  /**
   * Hands back a job whose handler did not finish within the shutdown grace, so that another
   * consumer gets it at once.
   *
   * @throws RuntimeException which {@link #classify} names; {@link Failure#UNAVAILABLE} is retried
   */
  void giveBack(J job);

  /**
   * Sends deferred settlements now; never throws (what fails stays deferred). The loop calls it
   * when a job finishes while it idles or stops, and when it closes.
   *
   * @param stopping true once, when the loop stopped leasing for good: a source may give up what it
   *     holds for this consumer (a due watch) so that another consumer takes it at once
   */
  default void flush(boolean stopping) {}

  /**
   * The context of the job's {@code lineup.process} observation: its queue, id, attempt and the
   * trace context stored with it. Called only when the loop observes jobs ({@link
   * ConsumerOptions#observation()}).
   *
   * @return the context, or null to leave the job unobserved (the default)
   */
  default ProcessContext processContext(J job) {
    return null;
  }

  /** What a call's failure means: lease lost, unavailable (retry) or refused. */
  Failure classify(RuntimeException error);
}
