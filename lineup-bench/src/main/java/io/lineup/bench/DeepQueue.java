package io.lineup.bench;

import io.lineup.bench.report.Figure;
import io.lineup.core.internal.store.KeySpace;
import io.lineup.core.model.QueueName;
import java.util.List;

/**
 * A queue holding {@link Counts#deepWaiting()} jobs, shared by the memory, rank and deep consume
 * scenarios (filling a million jobs once is enough).
 *
 * @param queue the queue
 * @param sampleIds ids of jobs spread evenly over its line, for position lookups
 * @param bytesPerJob the {@code bytes_per_job} figure measured while it was filled
 */
record DeepQueue(QueueName queue, List<String> sampleIds, Figure bytesPerJob) {
  /** Ids kept from the fill for position lookups. */
  static final int SAMPLE_IDS = 10_000;

  /**
   * {@code bytes_per_job}: Redis {@code used_memory} after minus before filling an empty queue,
   * divided by the jobs put in line ({@link Payloads#BYTES}-byte payloads, generated ids, default
   * options), taken as filled. The Redis CPU figure is that of the bulk publishes that filled it.
   * The queue is then brought to rest ({@link BenchRedis#settleSortedSet}) for the scenarios that
   * share it, which measure a line that has been deep a while.
   */
  static DeepQueue fill(BenchContext context) {
    int jobs = context.counts().deepWaiting();
    QueueName queue = context.freshQueue("deep");
    context.redis().awaitLazyFree();
    long memory = context.redis().usedMemory();
    RedisProbe probe = RedisProbe.start(context);
    context.say("bytes_per_job: filling a queue with %,d jobs", jobs);
    List<String> ids = QueueFiller.fill(context, queue, jobs, SAMPLE_IDS);
    RedisProbe.Cost cost = probe.finish("bytes_per_job", jobs);
    long memoryAfter = context.redis().usedMemory();
    // A line that just grew past a power of two is still moving its member table, for millions of
    // operations at 10,000,000 jobs.
    long started = System.nanoTime();
    context.redis().settleSortedSet(KeySpace.queueKeys(queue)[KeySpace.READY_INDEX]);
    context.say(
        "deep queue: its line's member table brought to rest in %,d ms",
        (System.nanoTime() - started) / 1_000_000);
    Figure figure =
        new Figure(
            "bytes_per_job",
            (memoryAfter - memory) / (double) jobs,
            Figure.Unit.BYTES,
            cost.redisMicrosPerJob(),
            cost.benchMicrosPerJob(),
            jobs);
    return new DeepQueue(queue, ids, figure);
  }
}
