package io.lineup.bench;

import io.lineup.core.model.QueueName;
import java.util.function.Consumer;

/**
 * Brings the bench's own JVM to its steady state before an in-process figure is taken, the way
 * {@link ServerWarmup} does for the server. The bench runs its scenarios one after another in one
 * JVM, and each scenario's path (the engine's publish, a bulk publish, a lease and ack) is compiled
 * by the JIT only once that scenario runs; a code path an earlier scenario compiled for other types
 * is thrown away and compiled again. Measured with {@code perf} on a machine of two cores shared
 * with Redis, the JIT compiler threads used 38 % of both cores during the measured single publishes
 * after a warm-up of 20,000 jobs, and the bench's CPU per publish was 15-18 µs instead of 5-10: the
 * figure measured the compiler, not the engine.
 *
 * <p>Runs rounds of the scenario's own work until the bench JVM's CPU time per operation (every
 * thread's, the compiler's included) is {@link Steadiness steady}, after at least {@link
 * Counts#warmupMinSeconds()}, or until {@link Counts#warmupMaxSeconds()} has passed.
 */
final class SteadyWarmup {
  private SteadyWarmup() {}

  /**
   * Runs rounds of {@code work} on a queue of its own each, dropped after the round, until steady.
   *
   * @param figure the figure warmed up for, as the progress lines name it; also the start of the
   *     queues' names
   * @param operations the operations {@code work} does in one round
   */
  static void onFreshQueues(
      BenchContext context, String figure, int operations, Consumer<QueueName> work) {
    run(
        context,
        figure,
        operations,
        () -> {
          QueueName queue = context.freshQueue(figure + "-warmup");
          work.accept(queue);
          context.redis().dropQueue(queue);
        });
  }

  /**
   * Runs {@code round}, each of {@code operations} operations, until steady (see the class).
   *
   * @param figure the figure warmed up for, as the progress lines name it
   * @param round one round of the scenario's work, leaving nothing behind that the next would see
   */
  static void run(BenchContext context, String figure, int operations, Runnable round) {
    Counts counts = context.counts();
    long begin = System.nanoTime();
    long minimum = begin + counts.warmupMinSeconds() * 1_000_000_000L;
    long limit = begin + counts.warmupMaxSeconds() * 1_000_000_000L;
    Steadiness steadiness = new Steadiness();
    for (int number = 1; ; number++) {
      long cpu = RedisProbe.benchCpuMicros();
      round.run();
      double cpuPerOperation = (RedisProbe.benchCpuMicros() - cpu) / (double) operations;
      boolean steady = steadiness.observe(cpuPerOperation);
      long now = System.nanoTime();
      if (steady && now > minimum) {
        context.say(
            "%s: warm-up steady after %d rounds of %,d (%.1f µs of bench CPU each)",
            figure, number, operations, cpuPerOperation);
        return;
      }
      if (now > limit) {
        context.say(
            "%s: warm-up stopped at its limit of %d s after %d rounds (%.1f µs of bench CPU each)",
            figure, counts.warmupMaxSeconds(), number, cpuPerOperation);
        return;
      }
    }
  }
}
