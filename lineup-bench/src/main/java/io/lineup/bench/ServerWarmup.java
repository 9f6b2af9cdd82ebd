package io.lineup.bench;

import io.lineup.core.QueueName;

/**
 * Brings the server to its steady state before the HTTP figures are taken. A JVM server compiles
 * its hot paths for tens of seconds under load: measured here, the JIT compiler threads of a
 * freshly started server used about two thirds of a core for the first 30 s of HTTP load, on a
 * machine with two cores shared by Redis, the server and the load. A short warm-up therefore
 * measures the compiler rather than the server.
 *
 * <p>Runs rounds of the real work (HTTP publishes, then leasing and acking the same jobs over HTTP)
 * until two rounds in a row take within {@link #STEADY_TOLERANCE} of each other, for at least
 * {@link #MIN_ROUNDS} rounds, or until {@link Counts#httpWarmupSeconds()} has passed.
 */
final class ServerWarmup {
  /** Largest relative difference between two consecutive rounds that counts as steady. */
  static final double STEADY_TOLERANCE = 0.05;

  /** Fewest rounds before the server may count as steady. */
  static final int MIN_ROUNDS = 3;

  private ServerWarmup() {}

  static void run(BenchContext context, HttpApi api, ServerProcess server) {
    Counts counts = context.counts();
    int jobs = 2 * counts.warmup(counts.httpPublishJobs());
    String payload = Payloads.text();
    long limit = System.nanoTime() + counts.httpWarmupSeconds() * 1_000_000_000L;
    long previous = 0;
    for (int round = 1; ; round++) {
      QueueName queue = context.freshQueue("http-warmup");
      long cpu = server.cpuMicros();
      long start = System.nanoTime();
      InFlight.run(jobs, HttpPublishScenario.IN_FLIGHT, i -> api.publish(queue, payload));
      HttpConsumeScenario.consume(api, queue);
      long nanos = System.nanoTime() - start;
      context.redis().dropQueue(queue);
      double change = previous == 0 ? 1 : Math.abs(nanos - previous) / (double) previous;
      context.say(
          "http warm-up round %d: %,d jobs published and consumed in %,d ms (%+.0f%%), server"
              + " CPU %.0f µs per job",
          round,
          jobs,
          nanos / 1_000_000,
          previous == 0 ? 0 : 100.0 * (nanos - previous) / previous,
          (server.cpuMicros() - cpu) / (double) jobs);
      if (round >= MIN_ROUNDS && change <= STEADY_TOLERANCE) {
        context.say("http warm-up: steady after %d rounds", round);
        return;
      }
      if (System.nanoTime() > limit) {
        context.say("http warm-up: stopped at its limit of %d s", counts.httpWarmupSeconds());
        return;
      }
      previous = nanos;
    }
  }
}
