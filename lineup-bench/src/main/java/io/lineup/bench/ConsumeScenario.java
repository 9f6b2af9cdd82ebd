package io.lineup.bench;

import io.lineup.bench.report.Figure;
import io.lineup.consumer.WorkerOptions;
import io.lineup.core.Worker;
import io.lineup.core.model.QueueName;
import java.time.Duration;
import java.util.ArrayList;
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
   * consume_per_s_1m} when {@code deepQueue} is given, and with a {@code floor} beside {@code
   * shallow}, {@code floor_consume_us} and {@code consume_floor_ratio}. A warm-up drain of a small
   * queue comes first. The phases measured take turns round by round ({@link Rounds#alternate}:
   * floor, shallow, deep, then deep, shallow, floor, ...), so the floor's drain always runs next to
   * the engine's. When both drains are measured, both come from the round whose deep-to-shallow
   * ratio is the median, since the second is judged as a ratio to the first; {@code
   * consume_floor_ratio} comes from the round whose ratio of Redis CPU per job (shallow over floor)
   * is the median, with that round's floor as {@code floor_consume_us} and that round's shallow
   * drain's CPU columns.
   *
   * @param deepQueue a queue holding {@link Counts#deepWaiting()} jobs, or null
   * @param floor the floor whose drains to pair with the shallow ones, or null
   * @return the figures: {@code consume_per_s}, {@code consume_per_s_1m}, {@code floor_consume_us},
   *     {@code consume_floor_ratio}, those measured, in this order
   */
  static List<Figure> run(
      BenchContext context, boolean shallow, QueueName deepQueue, FloorScenario floor) {
    warmUp(context);
    List<IntFunction<Figure>> phases = new ArrayList<>();
    int floorPhase = -1;
    int shallowPhase = -1;
    int deepPhase = -1;
    if (shallow && floor != null) {
      floorPhase = phases.size();
      phases.add(floor::consumeRound);
    }
    if (shallow) {
      shallowPhase = phases.size();
      phases.add(round -> shallowRound(context));
    }
    if (deepQueue != null) {
      deepPhase = phases.size();
      phases.add(round -> deepRound(context, deepQueue, round));
    }
    List<List<Figure>> rounds = Rounds.alternate(context, context.counts().consumeRounds(), phases);
    List<Figure> figures = new ArrayList<>();
    if (shallowPhase >= 0 && deepPhase >= 0) {
      int chosen =
          Rounds.medianRatioRound(context, rounds, deepPhase, shallowPhase, Figure::value, "");
      figures.add(rounds.get(chosen).get(shallowPhase));
      figures.add(rounds.get(chosen).get(deepPhase));
    } else {
      int phase = Math.max(shallowPhase, deepPhase);
      figures.add(rounds.get(Rounds.medianRound(rounds, r -> r.get(phase).value())).get(phase));
    }
    if (floorPhase >= 0) {
      int chosen =
          Rounds.medianRatioRound(
              context,
              rounds,
              shallowPhase,
              floorPhase,
              Figure::redisCpuMicrosPerJob,
              " (Redis CPU per job)");
      Figure floorFigure = rounds.get(chosen).get(floorPhase);
      figures.add(floorFigure);
      figures.add(overFloor(rounds.get(chosen).get(shallowPhase), floorFigure));
    }
    return figures;
  }

  /**
   * {@code consume_floor_ratio}: Redis CPU per consumed job of a drain ({@code consume_per_s}) ÷
   * {@code floor_consume_us}, the minimal lease and ack's, of a floor drain run next to it on the
   * same Redis. Its CPU columns are those of the engine's drain.
   */
  private static Figure overFloor(Figure consume, Figure floor) {
    return new Figure(
        "consume_floor_ratio",
        consume.redisCpuMicrosPerJob() / floor.redisCpuMicrosPerJob(),
        Figure.Unit.RATIO,
        consume.redisCpuMicrosPerJob(),
        consume.benchCpuMicrosPerJob(),
        consume.jobs());
  }

  private static void warmUp(BenchContext context) {
    Counts counts = context.counts();
    int warmJobs = counts.warmup(counts.consumeJobs());
    context.say("consume_per_s: warm-up, rounds of %,d jobs filled and drained", warmJobs);
    SteadyWarmup.onFreshQueues(
        context,
        "consume_per_s",
        warmJobs,
        warm -> {
          QueueFiller.fill(context, warm, warmJobs, 0);
          drain(context, warm, warmJobs, "consume_per_s");
        });
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
