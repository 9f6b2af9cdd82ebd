package io.lineup.bench;

import io.lineup.core.model.QueueName;

/**
 * Brings the server to its steady state before the HTTP figures are taken. A JVM server compiles
 * its hot paths for tens of seconds under load: measured here, the JIT compiler threads of a
 * freshly started server used about two thirds of a core for the first 30 s of HTTP load, on a
 * machine with two cores shared by Redis, the server and the load. A short warm-up therefore
 * measures the compiler rather than the server.
 *
 * <p>Runs rounds of the real work (HTTP publishes, then leasing and acking the same jobs over HTTP)
 * until the server's CPU time per job of two rounds in a row agrees within {@link
 * #STEADY_TOLERANCE}, after at least {@link #MIN_ROUNDS} rounds and {@link
 * Counts#httpWarmupMinSeconds()}, or until {@link Counts#httpWarmupSeconds()} has passed. The
 * compiler's work comes in waves, so CPU per job can hold still for a round or two while much is
 * left to compile: without the minimum time the warm-up ended early in about one run of three. CPU
 * time per job, not the round's duration: on a shared machine durations wobble by more than the
 * tolerance while the compiler is still at work.
 */
final class ServerWarmup {
  /** Largest relative difference of CPU per job between two rounds that counts as steady. */
  static final double STEADY_TOLERANCE = 0.05;

  /** Fewest rounds before the server may count as steady. */
  static final int MIN_ROUNDS = 5;

  private ServerWarmup() {}

  static void run(BenchContext context, HttpApi api, ServerProcess server) {
    Counts counts = context.counts();
    int jobs = 2 * counts.warmup(counts.httpPublishJobs());
    String payload = Payloads.text();
    long begin = System.nanoTime();
    long minimum = begin + counts.httpWarmupMinSeconds() * 1_000_000_000L;
    long limit = begin + counts.httpWarmupSeconds() * 1_000_000_000L;
    double previous = 0;
    for (int round = 1; ; round++) {
      QueueName queue = context.freshQueue("http-warmup");
      long cpu = server.cpuMicros();
      long start = System.nanoTime();
      InFlight.run(jobs, HttpPublishScenario.IN_FLIGHT, i -> api.publish(queue, payload));
      HttpConsumeScenario.consume(api, queue);
      long nanos = System.nanoTime() - start;
      double cpuPerJob = (server.cpuMicros() - cpu) / (double) jobs;
      context.redis().dropQueue(queue);
      double change = previous == 0 ? 1 : Math.abs(cpuPerJob - previous) / previous;
      context.say(
          "http warm-up round %d: %,d jobs published and consumed in %,d ms, server CPU %.0f µs"
              + " per job (%+.0f%%)",
          round,
          jobs,
          nanos / 1_000_000,
          cpuPerJob,
          previous == 0 ? 0 : 100.0 * (cpuPerJob - previous) / previous);
      if (round >= MIN_ROUNDS && System.nanoTime() > minimum && change <= STEADY_TOLERANCE) {
        context.say("http warm-up: steady after %d rounds", round);
        return;
      }
      if (System.nanoTime() > limit) {
        context.say("http warm-up: stopped at its limit of %d s", counts.httpWarmupSeconds());
        return;
      }
      previous = cpuPerJob;
    }
  }
}
