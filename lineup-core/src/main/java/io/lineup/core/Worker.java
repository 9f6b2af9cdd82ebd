package io.lineup.core;

import io.lineup.consumer.ConsumerLoop;
import io.lineup.consumer.ConsumerOptions;
import io.lineup.consumer.JobHandler;
import io.lineup.consumer.WorkerOptions;
import io.lineup.consumer.observation.ObservationSettings;
import io.lineup.core.internal.store.RedisStore;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.Limits;
import io.lineup.core.model.QueueName;
import java.lang.System.Logger.Level;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link JobHandler} for the jobs of one queue, {@code concurrency} at a time, each on its
 * own virtual thread.
 *
 * <p>One fetch loop leases as many jobs as there are free slots, with up to two lease calls on
 * their way (the second sent while Redis runs the first, once half the slots are free for it); acks
 * of finished jobs ride on the next lease call, so a busy worker costs one script call per batch
 * rather than two per job. When the queue is empty the loop blocks on the queue's wake-up list (it
 * is woken when a job arrives, and on time when a delayed job falls due) and finished jobs are
 * acked directly. Leases are extended while handlers run. {@link #close()} stops leasing, lets
 * running handlers finish within the shutdown grace, then interrupts them and releases their jobs
 * back to their place in line.
 */
public final class Worker implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Worker.class);

  /**
   * Lease calls one worker has on their way at most. With one at a time, Redis stood idle for about
   * a fifth of a busy drain while the worker unpacked each reply and started its jobs.
   */
  static final int LEASE_CALLS_IN_FLIGHT = 2;

  private final ConsumerLoop<LeasedJob> loop;

  /** Thrown by an internal handler (the job stream's) to give its job back unused. */
  static final class ReleaseRequest extends RuntimeException {
    ReleaseRequest() {
      super("released", null, false, false);
    }
  }

  Worker(
      Leaser leaser,
      RedisStore store,
      QueueName queue,
      JobHandler<LeasedJob> handler,
      WorkerOptions options,
      ObservationSettings observation) {
    check(options);
    this.loop =
        new ConsumerLoop<>(
            new StoreLeaseSource(leaser, store, queue, options.idleWait()),
            handler,
            ConsumerOptions.builder()
                .concurrency(options.concurrency())
                .callsInFlight(LEASE_CALLS_IN_FLIGHT)
                .shutdownGrace(options.shutdownGrace())
                .name("lineup")
                .label(queue.toString())
                .observation(observation)
                .build(),
            Worker::log);
  }

  /**
   * The engine's bounds of the shared options, checked before anything is leased.
   *
   * @throws InvalidArgumentException naming the first option out of range
   */
  private static void check(WorkerOptions options) {
    if (options.concurrency() < 1 || options.concurrency() > WorkerOptions.MAX_CONCURRENCY) {
      throw new InvalidArgumentException(
          "concurrency",
          "must be between 1 and "
              + WorkerOptions.MAX_CONCURRENCY
              + ", got "
              + options.concurrency());
    }
    Checks.duration("idleWait", options.idleWait(), 1, Limits.MAX_WAIT_MS);
    Checks.duration("shutdownGrace", options.shutdownGrace(), 0, Limits.MAX_WAIT_MS);
  }

  /** The loop's lines, logged under this class's name like the rest of the engine's. */
  private static void log(Level level, Supplier<String> message) {
    switch (level) {
      case WARNING, ERROR -> LOG.warn(message.get());
      case INFO -> LOG.info(message.get());
      default -> {
        if (LOG.isDebugEnabled()) {
          LOG.debug(message.get());
        }
      }
    }
  }

  /** Starts leasing; returns this. */
  public Worker start() {
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
   * Stops leasing, waits up to the shutdown grace for running handlers, then interrupts the rest
   * and releases their jobs: back to their place in line, the attempt not counted. Pending acks are
   * sent before it returns.
   */
  @Override
  public void close() {
    loop.close();
  }
}
