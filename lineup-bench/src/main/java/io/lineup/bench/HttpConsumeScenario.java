package io.lineup.bench;

import io.lineup.bench.report.Figure;
import io.lineup.core.model.QueueName;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code http_consume_per_s}: jobs already waiting (put in line by the engine) are leased with
 * {@code POST …/leases} ({@link #LEASE_BATCH} per request) and the jobs of each lease acked
 * together with one {@code POST …/acks}, by {@link #CONSUMERS} consumers at once, until the line is
 * empty. Counted in acked jobs per second; the median of {@link Counts#rounds()} rounds.
 */
final class HttpConsumeScenario {
  /** Consumers at once, each a platform thread looping lease, then ack each job. */
  static final int CONSUMERS = 32;

  /** Jobs asked for per lease request. */
  static final int LEASE_BATCH = 10;

  private HttpConsumeScenario() {}

  static Figure run(BenchContext context, HttpApi api, ServerProcess server) {
    Counts counts = context.counts();
    QueueName warm = context.freshQueue("http-consume-warmup");
    // A warm-up of the measurement's own size, as for http_publish_per_s.
    int warmJobs = counts.httpConsumeJobs();
    QueueFiller.fill(context, warm, warmJobs, 0);
    context.say("http_consume_per_s: warm-up, %,d jobs", warmJobs);
    consume(api, warm);
    context.redis().dropQueue(warm);

    return Rounds.median(
        context, context.counts().rounds(), round -> measure(context, api, server));
  }

  private static Figure measure(BenchContext context, HttpApi api, ServerProcess server) {
    Counts counts = context.counts();
    QueueName queue = context.freshQueue("http-consume");
    QueueFiller.fill(context, queue, counts.httpConsumeJobs(), 0);
    long waiting = context.lineup().stats(queue).ready();
    context.say(
        "http_consume_per_s: %,d jobs waiting, %d consumers, %d jobs per lease",
        waiting, CONSUMERS, LEASE_BATCH);
    RedisProbe probe = RedisProbe.start(context);
    long serverCpu = server.cpuMicros();
    long start = System.nanoTime();
    long acked = consume(api, queue);
    long nanos = System.nanoTime() - start;
    RedisProbe.Cost cost = probe.finish("http_consume_per_s", acked);
    context.say(
        "http_consume_per_s: the server process used %.1f µs of CPU per job",
        (server.cpuMicros() - serverCpu) / (double) Math.max(1, acked));
    context.redis().dropQueue(queue);
    if (acked != waiting) {
      throw new IllegalStateException(
          "http_consume_per_s: " + acked + " jobs acked of " + waiting + " waiting");
    }
    return new Figure(
        "http_consume_per_s",
        BenchContext.perSecond(acked, nanos),
        Figure.Unit.PER_SECOND,
        cost.redisMicrosPerJob(),
        cost.benchMicrosPerJob(),
        acked);
  }

  /** Leases and acks until a lease comes back empty for every consumer; returns the jobs acked. */
  static long consume(HttpApi api, QueueName queue) {
    AtomicLong acked = new AtomicLong();
    InFlight.run(
        CONSUMERS,
        CONSUMERS,
        consumer -> {
          while (true) {
            var leases = api.lease(queue, LEASE_BATCH);
            if (leases.isEmpty()) {
              return;
            }
            api.ackAll(queue, leases);
            acked.addAndGet(leases.size());
          }
        });
    return acked.get();
  }
}
