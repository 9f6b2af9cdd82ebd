package io.lineup.bench;

import io.lineup.bench.report.Figure;
import io.lineup.core.QueueName;
import io.lineup.core.Worker;
import io.lineup.core.WorkerOptions;
import java.time.Duration;
import java.util.List;
import java.util.function.IntFunction;

/**
 * {@code consume_per_s} and {@code consume_per_s_1m}: jobs already waiting are leased and acked by
 * one {@link Worker} with a no-op handler, end to end: from {@code start()} until the queue's
 * {@code acked} counter (in Redis) has grown by the number of jobs.
 *
 * <p>{@code consume_per_s} drains a queue of {@link Counts#consumeJobs()} jobs. {@code
 * consume_per_s_1m} takes the first {@link Counts#deepConsumeJobs()} jobs of a queue holding {@link
 * Counts#deepWaiting()}, so the line is deep for the whole measurement. Each is measured in {@link
 * Counts#consumeRounds()} rounds and alone is the median round; when both run, their rounds take
 * turns and both come from the round whose ratio is the median ({@link Rounds#medianPair}). Before
 * each later round of {@code consume_per_s_1m} the jobs taken are published again, so every round
 * starts with the deep line full. With {@code --deep-10m} the deep figure is {@code
 * consume_per_s_10m}, from a queue ten times as deep ({@link Counts#tenMillionDeep()}).
 */
final class ConsumeScenario {
  /**
   * The worker's concurrency: jobs handled at once, and so the most one lease call takes. A no-op
   * handler finishes at once, so this is in effect the lease batch.
   */
  static final int WORKER_CONCURRENCY = 256;

  /** Longest a consume measurement may take before the run fails. */
  static final Duration TIMEOUT = Duration.ofMinutes(10);

  private ConsumeScenario() {}

  /**
   * The consume figures asked for: {@code consume_per_s} when {@code shallow}, {@code
   * consume_per_s_1m} when {@code deepQueue} is given. A warm-up drain of a small queue comes
   * first. When both are measured their rounds take turns and both figures come from the round
   * whose ratio is the median ({@link Rounds#medianPair}), since the second is judged as a ratio to
   * the first.
   *
   * @param deepQueue a queue holding {@link Counts#deepWaiting()} jobs, or null
   * @return the figures, {@code consume_per_s} first
   */
  static List<Figure> run(BenchContext context, boolean shallow, QueueName deepQueue) {
    warmUp(context);
    int rounds = context.counts().consumeRounds();
    IntFunction<Figure> shallowPhase = round -> shallowRound(context);
    IntFunction<Figure> deepPhase = round -> deepRound(context, deepQueue, round);
    if (shallow && deepQueue != null) {
      return Rounds.medianPair(context, rounds, shallowPhase, deepPhase);
    }
    return List.of(Rounds.median(context, rounds, shallow ? shallowPhase : deepPhase));
  }

  private static void warmUp(BenchContext context) {
    Counts counts = context.counts();
    QueueName warm = context.freshQueue("consume-warmup");
    int warmJobs = counts.warmup(counts.consumeJobs());
    context.say("consume_per_s: warm-up, %,d jobs", warmJobs);
    QueueFiller.fill(context, warm, warmJobs, 0);
    drain(context, warm, warmJobs, "consume_per_s");
    context.redis().dropQueue(warm);
  }

  /** One round of {@code consume_per_s}: a drain of a fresh queue. */
  private static Figure shallowRound(BenchContext context) {
    Counts counts = context.counts();
    QueueName queue = context.freshQueue("consume");
    QueueFiller.fill(context, queue, counts.consumeJobs(), 0);
    context.say(
        "consume_per_s: %,d jobs waiting, worker concurrency %d",
        counts.consumeJobs(), WORKER_CONCURRENCY);
    Figure figure = drain(context, queue, counts.consumeJobs(), "consume_per_s");
    context.redis().dropQueue(queue);
    return figure;
  }

  /** One round of {@code consume_per_s_1m}: the front of the deep line. */
  private static Figure deepRound(BenchContext context, QueueName deepQueue, int round) {
    Counts counts = context.counts();
    if (round > 1) {
      // Put back at the end of the line what the last round took from its front.
      QueueFiller.fill(context, deepQueue, counts.deepConsumeJobs(), 0);
    }
    String name = "consume_per_s" + counts.deepSuffix();
    context.say(
        "%s: %,d of %,d jobs waiting, worker concurrency %d",
        name,
        counts.deepConsumeJobs(),
        context.lineup().stats(deepQueue).ready(),
        WORKER_CONCURRENCY);
    return drain(context, deepQueue, counts.deepConsumeJobs(), name);
  }

  static Figure drain(BenchContext context, QueueName queue, int jobs, String name) {
    long ackedBefore = acked(context, queue);
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    WorkerOptions options = WorkerOptions.defaults().withConcurrency(WORKER_CONCURRENCY);
    Worker worker = context.lineup().worker(queue, job -> null, options);
    try {
      RedisProbe probe = RedisProbe.start(context);
      long start = System.nanoTime();
      worker.start();
      // Watch the worker's own count first (free), then Redis's count of acks, which trails it
      // by the acks still riding on the next lease call.
      while (worker.handled() < jobs) {
        checkDeadline(deadline, name, worker.handled(), jobs);
        Pause.millis(1);
      }
      long acked;
      while ((acked = acked(context, queue) - ackedBefore) < jobs) {
        checkDeadline(deadline, name, acked, jobs);
        Pause.millis(1);
      }
      long nanos = System.nanoTime() - start;
      RedisProbe.Cost cost = probe.finish(name, acked);
      if (worker.failed() > 0) {
        throw new IllegalStateException(name + ": " + worker.failed() + " handlers failed");
      }
      return new Figure(
          name,
          BenchContext.perSecond(acked, nanos),
          Figure.Unit.PER_SECOND,
          cost.redisMicrosPerJob(),
          cost.benchMicrosPerJob(),
          acked);
    } finally {
      worker.close();
      context.awaitNoLeases(queue);
    }
  }

  private static long acked(BenchContext context, QueueName queue) {
    return context.lineup().stats(queue).counters().getOrDefault("acked", 0L);
  }

  private static void checkDeadline(long deadline, String name, long done, long jobs) {
    if (System.nanoTime() > deadline) {
      throw new IllegalStateException(
          name + ": only " + done + " of " + jobs + " jobs acked within " + TIMEOUT);
    }
  }
}
