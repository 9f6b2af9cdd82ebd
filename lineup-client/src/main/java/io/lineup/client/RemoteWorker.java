package io.lineup.client;

import io.lineup.api.resource.LeasedJob;
import io.lineup.consumer.ConsumerLog;
import io.lineup.consumer.ConsumerLoop;
import io.lineup.consumer.ConsumerOptions;
import io.lineup.consumer.JobHandler;
import io.lineup.consumer.WorkerOptions;
import io.lineup.consumer.observation.ObservationSettings;
import java.time.Duration;

/**
 * Runs a {@link JobHandler} for the jobs of one queue over HTTP, {@code concurrency} at a time,
 * each on its own virtual thread: the remote twin of the embedded engine's {@code Worker}, with the
 * same methods, so moving a worker from the engine to a server changes the line that creates it.
 *
 * <p>One loop long-polls the lease route for as many jobs as there are free slots (waiting up to
 * {@link WorkerOptions#idleWait()} per call, answered at once when a job is ready; a refusal by a
 * queue limit waits the time the server names). Each handler's lease is extended when half of it is
 * left. A handler that returns acks its job; one that throws nacks it. {@link #close()} stops
 * leasing, lets running handlers finish within the shutdown grace, then interrupts them and nacks
 * their jobs with no retry delay, so another worker gets them at once (the HTTP API has no release
 * route yet, so that delivery counts as an attempt).
 *
 * <p>The lease extensions assume this machine's clock is within a fraction of the jobs' time-to-run
 * of the Redis server's.
 */
public final class RemoteWorker implements AutoCloseable {
  private final ConsumerLoop<LeasedJob> loop;

  RemoteWorker(
      LineupClient client,
      QueueName queue,
      JobHandler<LeasedJob> handler,
      WorkerOptions options,
      ObservationSettings observation) {
    check(options);
    this.loop =
        new ConsumerLoop<>(
            new RemoteLeaseSource(client, queue, options.idleWait()),
            handler,
            ConsumerOptions.builder()
                .concurrency(options.concurrency())
                .batch(LineupClient.MAX_BATCH)
                .shutdownGrace(options.shutdownGrace())
                .name("lineup-remote")
                .label(queue.toString())
                .observation(observation)
                .build(),
            ConsumerLog.system(RemoteWorker.class.getName()));
  }

  /**
   * The client's bounds of the shared options: one long-poll waits at most 300 s.
   *
   * @throws IllegalArgumentException naming the first option out of range
   */
  private static void check(WorkerOptions options) {
    int concurrency = options.concurrency();
    if (concurrency < 1 || concurrency > WorkerOptions.MAX_CONCURRENCY) {
      throw new IllegalArgumentException(
          "concurrency must be 1 to " + WorkerOptions.MAX_CONCURRENCY + "; got " + concurrency);
    }
    Duration idleWait = options.idleWait();
    if (idleWait.isNegative() || idleWait.compareTo(LineupClient.MAX_LEASE_WAIT) > 0) {
      throw new IllegalArgumentException("idleWait must be 0 to 300 s; got " + idleWait);
    }
    if (options.shutdownGrace().isNegative()) {
      throw new IllegalArgumentException(
          "shutdownGrace must be 0 or more; got " + options.shutdownGrace());
    }
  }

  /** Starts leasing; returns this. */
  public RemoteWorker start() {
    loop.start();
    return this;
  }

  /** Jobs being handled now. */
  public int inFlight() {
    return loop.inFlight();
  }

  /** Jobs whose handler returned, since start. */
  public long handled() {
    return loop.handled();
  }

  /** Jobs whose handler threw, since start. */
  public long failed() {
    return loop.failed();
  }

  /**
   * Stops leasing (a long-poll in progress is cancelled, and the server hands back any job it
   * leased for it), waits up to the shutdown grace for running handlers, then interrupts the rest
   * and nacks their jobs with no retry delay. Acks and nacks of finished handlers are sent before
   * it returns.
   */
  @Override
  public void close() {
    loop.close();
  }
}
