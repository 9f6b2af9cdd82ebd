package io.lineup.consumer;

import java.time.Duration;
import java.util.Objects;

/**
 * How a worker runs: the engine's {@code Worker} and the client's {@code RemoteWorker} take the
 * same options, with the same defaults. Each worker checks the values against its own bounds when
 * it is created, and refuses them in its own terms (the engine with its {@code
 * InvalidArgumentException} naming the field, the client with an {@link IllegalArgumentException}):
 * concurrency 1 to {@link #MAX_CONCURRENCY} for both; an idle wait of 1 ms to the engine's longest
 * wait, or of 0 to 300 s (one long-poll) for the client; a shutdown grace of 0 or more.
 *
 * @param concurrency jobs handled at once; also the most jobs one lease call takes
 * @param idleWait longest single wait for jobs before the worker looks again (it is woken or
 *     answered at once when a job is ready, and on time when a delayed job falls due)
 * @param shutdownGrace how long the worker's {@code close()} lets running handlers finish before it
 *     interrupts them and gives their jobs back
 */
public record WorkerOptions(int concurrency, Duration idleWait, Duration shutdownGrace) {
  /** The most jobs one worker handles at once. */
  public static final int MAX_CONCURRENCY = 10_000;

  /** Eight jobs at once. */
  public static final int DEFAULT_CONCURRENCY = 8;

  /** 30 s per wait for jobs. */
  public static final Duration DEFAULT_IDLE_WAIT = Duration.ofSeconds(30);

  /** 30 s for running handlers at shutdown. */
  public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(30);

  /**
   * Takes the values as they are; the worker that runs with them checks their bounds.
   *
   * @throws NullPointerException when a duration is null
   */
  public WorkerOptions {
    Objects.requireNonNull(idleWait, "idleWait");
    Objects.requireNonNull(shutdownGrace, "shutdownGrace");
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
