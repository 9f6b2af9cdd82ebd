package io.lineup.bench;

import io.lineup.bench.report.Figure;
import io.lineup.core.model.QueueName;

/**
 * {@code publish_bulk_per_s}: bulk publishes ({@code Lineup.publishAllAsync}) of {@link
 * #JOBS_PER_CALL} jobs per call, {@link #IN_FLIGHT} calls at once, into an empty queue. Counted in
 * jobs per second.
 */
final class BulkPublishScenario {
  /** Jobs per bulk call (issue 4). */
  static final int JOBS_PER_CALL = 100;

  /**
   * Bulk calls at once: a call already carries 100 jobs, so a few in flight keep Redis busy; more
   * would only wait in its queue.
   */
  static final int IN_FLIGHT = 8;

  private BulkPublishScenario() {}

  static Figure run(BenchContext context) {
    Counts counts = context.counts();
    int warmJobs = counts.warmup(counts.bulkJobs());
    context.say("publish_bulk_per_s: warm-up, rounds of %,d jobs", warmJobs);
    SteadyWarmup.onFreshQueues(
        context,
        "publish_bulk_per_s",
        warmJobs,
        warm -> publish(context, warm, warmJobs / JOBS_PER_CALL));

    QueueName queue = context.freshQueue("bulk");
    int calls = counts.bulkJobs() / JOBS_PER_CALL;
    long jobs = (long) calls * JOBS_PER_CALL;
    context.say(
        "publish_bulk_per_s: %,d jobs in %,d calls, %d calls in flight", jobs, calls, IN_FLIGHT);
    RedisProbe probe = RedisProbe.start(context);
    long nanos = publish(context, queue, calls);
    RedisProbe.Cost cost = probe.finish("publish_bulk_per_s", jobs);
    context.redis().dropQueue(queue);
    return new Figure(
        "publish_bulk_per_s",
        BenchContext.perSecond(jobs, nanos),
        Figure.Unit.PER_SECOND,
        cost.redisMicrosPerJob(),
        cost.benchMicrosPerJob(),
        jobs);
  }

  private static long publish(BenchContext context, QueueName queue, int calls) {
    return InFlight.runAsync(
        calls, IN_FLIGHT, i -> context.lineup().publishAllAsync(queue, QueueFiller.batch()));
  }
}
