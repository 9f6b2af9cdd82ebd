package io.lineup.bench;

import io.lineup.bench.report.Figure;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.QueueName;

/**
 * {@code publish_per_s}: single publishes ({@code Lineup.publishAsync}) of {@link
 * Payloads#BYTES}-byte payloads, {@link #IN_FLIGHT} in flight on the engine's shared connection (as
 * the reference is measured), into an empty queue.
 */
final class PublishScenario {
  /** Publishes in flight at once. */
  static final int IN_FLIGHT = 64;

  private PublishScenario() {}

  static Figure run(BenchContext context) {
    Counts counts = context.counts();
    int warmJobs = counts.warmup(counts.publishJobs());
    context.say("publish_per_s: warm-up, rounds of %,d jobs", warmJobs);
    SteadyWarmup.onFreshQueues(
        context, "publish_per_s", warmJobs, warm -> publish(context, warm, warmJobs));

    QueueName queue = context.freshQueue("publish");
    context.say("publish_per_s: %,d jobs, %d in flight", counts.publishJobs(), IN_FLIGHT);
    RedisProbe probe = RedisProbe.start(context);
    long nanos = publish(context, queue, counts.publishJobs());
    RedisProbe.Cost cost = probe.finish("publish_per_s", counts.publishJobs());
    context.redis().dropQueue(queue);
    return new Figure(
        "publish_per_s",
        BenchContext.perSecond(counts.publishJobs(), nanos),
        Figure.Unit.PER_SECOND,
        cost.redisMicrosPerJob(),
        cost.benchMicrosPerJob(),
        counts.publishJobs());
  }

  private static long publish(BenchContext context, QueueName queue, int jobs) {
    byte[] payload = Payloads.payload();
    return InFlight.runAsync(
        jobs, IN_FLIGHT, i -> context.lineup().publishAsync(queue, NewJob.of(payload)));
  }
}
