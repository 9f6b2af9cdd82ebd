package io.lineup.core;

import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.Limits;
import java.time.Duration;

/**
 * How a {@link Worker} runs.
 *
 * @param concurrency jobs handled at once (1 to 10,000); also the most jobs one lease call takes
 * @param idleWait longest single wait for jobs before the worker looks again (it is woken at once
 *     when a job arrives, and on time when a delayed job falls due)
 * @param shutdownGrace how long {@link Worker#close()} lets running handlers finish before it
 *     interrupts them and puts their jobs back in line
 */
public record WorkerOptions(int concurrency, Duration idleWait, Duration shutdownGrace) {
  public static final int DEFAULT_CONCURRENCY = 8;
  public static final Duration DEFAULT_IDLE_WAIT = Duration.ofSeconds(30);
  public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(30);

  /**
   * @throws InvalidArgumentException when a value is out of range
   */
  public WorkerOptions {
    if (concurrency < 1 || concurrency > 10_000) {
      throw new InvalidArgumentException(
          "concurrency", "must be between 1 and 10000, got " + concurrency);
    }
    Checks.duration("idleWait", idleWait, 1, Limits.MAX_WAIT_MS);
    Checks.duration("shutdownGrace", shutdownGrace, 0, Limits.MAX_WAIT_MS);
  }

  /** Eight at once, 30 s idle wait, 30 s shutdown grace. */
  public static WorkerOptions defaults() {
    return new WorkerOptions(DEFAULT_CONCURRENCY, DEFAULT_IDLE_WAIT, DEFAULT_SHUTDOWN_GRACE);
  }

  public WorkerOptions withConcurrency(int value) {
    return new WorkerOptions(value, idleWait, shutdownGrace);
  }

  public WorkerOptions withIdleWait(Duration value) {
    return new WorkerOptions(concurrency, value, shutdownGrace);
  }

  public WorkerOptions withShutdownGrace(Duration value) {
    return new WorkerOptions(concurrency, idleWait, value);
  }
}
