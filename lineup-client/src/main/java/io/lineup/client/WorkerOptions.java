package io.lineup.client;

import java.time.Duration;

/**
 * How a {@link RemoteWorker} runs; the same fields as the embedded engine's {@code WorkerOptions}.
 *
 * @param concurrency jobs handled at once (1 to 10,000); also the most jobs one lease call takes
 *     (at most 1000)
 * @param idleWait longest wait of one long-poll lease (at most 300 s); the call answers as soon as
 *     a job is ready
 * @param shutdownGrace how long {@link RemoteWorker#close()} lets running handlers finish before it
 *     interrupts them and nacks their jobs for an immediate retry
 */
public record WorkerOptions(int concurrency, Duration idleWait, Duration shutdownGrace) {
  /** Eight jobs at once. */
  public static final int DEFAULT_CONCURRENCY = 8;

  /** 30 s per long-poll. */
  public static final Duration DEFAULT_IDLE_WAIT = Duration.ofSeconds(30);

  /** 30 s for running handlers at shutdown. */
  public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(30);

  /**
   * @throws IllegalArgumentException when a value is out of range
   */
  public WorkerOptions {
    if (concurrency < 1 || concurrency > 10_000) {
      throw new IllegalArgumentException("concurrency must be 1 to 10000; got " + concurrency);
    }
    if (idleWait == null
        || idleWait.isNegative()
        || idleWait.compareTo(LineupClient.MAX_LEASE_WAIT) > 0) {
      throw new IllegalArgumentException("idleWait must be 0 to 300 s; got " + idleWait);
    }
    if (shutdownGrace == null || shutdownGrace.isNegative()) {
      throw new IllegalArgumentException("shutdownGrace must be 0 or more; got " + shutdownGrace);
    }
  }

  /** Eight at once, 30 s idle wait, 30 s shutdown grace. */
  public static WorkerOptions defaults() {
    return new WorkerOptions(DEFAULT_CONCURRENCY, DEFAULT_IDLE_WAIT, DEFAULT_SHUTDOWN_GRACE);
  }

  /** These options with another concurrency. */
  public WorkerOptions withConcurrency(int value) {
    return new WorkerOptions(value, idleWait, shutdownGrace);
  }

  /** These options with another idle wait. */
  public WorkerOptions withIdleWait(Duration value) {
    return new WorkerOptions(concurrency, value, shutdownGrace);
  }

  /** These options with another shutdown grace. */
  public WorkerOptions withShutdownGrace(Duration value) {
    return new WorkerOptions(concurrency, idleWait, value);
  }
}
