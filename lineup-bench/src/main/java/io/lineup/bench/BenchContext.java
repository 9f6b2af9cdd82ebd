package io.lineup.bench;

import io.lineup.core.Lineup;
import io.lineup.core.model.QueueName;
import java.io.PrintStream;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What every scenario uses: the engine, the Redis under load, the counts and where progress goes.
 *
 * @param lineup the engine under test, with its default options
 * @param redis the Redis under load
 * @param counts the sizes of this run
 * @param progress where progress lines go (standard error)
 * @param commandStats whether each scenario prints Redis's per-command breakdown
 */
record BenchContext(
    Lineup lineup, BenchRedis redis, Counts counts, PrintStream progress, boolean commandStats) {
  /** Namespace of every queue the bench makes. */
  static final String NAMESPACE = "lineup-bench";

  /** A queue no earlier run used: {@code lineup-bench/<purpose>-<random>}. */
  QueueName freshQueue(String purpose) {
    String suffix = Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36);
    return QueueName.of(NAMESPACE, purpose + "-" + suffix);
  }

  /** Longest wait for the acks of closed workers to reach Redis before their queue is dropped. */
  static final long SETTLE_TIMEOUT_MS = 10_000;

  /**
   * Waits (up to {@link #SETTLE_TIMEOUT_MS}) until no job of {@code queue} is leased: a closed
   * worker's last acks can still be on their way, and dropping the queue under them would turn them
   * into refused acks.
   */
  void awaitNoLeases(QueueName queue) {
    long deadline = System.nanoTime() + SETTLE_TIMEOUT_MS * 1_000_000;
    while (lineup.stats(queue).leased() > 0 && System.nanoTime() < deadline) {
      Pause.millis(5);
    }
  }

  /** A full collection of the bench JVM's heap, before a latency measurement. */
  static void collectGarbage() {
    System.gc();
  }

  void say(String format, Object... args) {
    progress.printf("[bench] " + format + "%n", args);
  }

  /** Operations per second. */
  static double perSecond(long operations, long nanos) {
    return operations * 1e9 / nanos;
  }
}
