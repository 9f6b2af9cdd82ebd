package io.lineup.bench;

import io.lineup.bench.report.Figure;
import io.lineup.consumer.WorkerOptions;
import io.lineup.core.Worker;
import io.lineup.core.model.KeySettings;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.Leases;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.PublishResult;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

/**
 * Fair queues (docs/fairness.md): what serving keys in turn costs, and how well it keeps its word.
 *
 * <ul>
 *   <li>{@code fair_consume_per_s}: a fair queue's jobs spread at random over {@link
 *       FairCounts#consumeKeys()} keys, drained as {@code consume_per_s} drains a plain queue
 *       ({@link ConsumeScenario#drain}); {@code fair_consume_plain_per_s}: the same drain of a
 *       plain queue of as many jobs, round by round beside it; {@code fair_consume_ratio}: the
 *       first over the second, from the round whose ratio is the median.
 *   <li>{@code fair_share_error}: ten backlogged keys of weights 1 to 4; after {@link
 *       FairCounts#shareLeases()} leases, the largest difference between a key's share of them and
 *       its weight's share, relative to the latter (%).
 *   <li>{@code fair_wait_small_key_ms_p99}: one key has {@link FairCounts#bigBacklog()} jobs
 *       waiting and one worker (one job at a time, no-op work) drains them; another key then
 *       publishes one job, {@link FairCounts#smallRepeats()} times one after another: the time from
 *       its publish to its handler starting.
 *   <li>{@code fair_rank_us_p99}: {@code position()} of jobs spread over a fair line of {@link
 *       FairCounts#rankJobs()} jobs over {@link FairCounts#rankKeys()} keys.
 *   <li>{@code fair_bytes_per_job} and {@code fair_plain_bytes_per_job}: Redis memory per waiting
 *       job of that fair line and of a plain line of as many jobs with the same 100-byte payloads;
 *       {@code fair_bytes_ratio}: the first over the second.
 * </ul>
 */
final class FairScenario {
  /** Jobs per bulk publish of the fills. */
  private static final int PER_CALL = 1_000;

  /** Bulk publishes in flight while filling. */
  private static final int IN_FLIGHT = 4;

  /** The weights of {@code fair_share_error}'s ten keys. */
  private static final int[] SHARE_WEIGHTS = {1, 2, 3, 4, 1, 2, 3, 4, 1, 2};

  /** Jobs leased per call while counting shares. */
  private static final int SHARE_BATCH = 100;

  /** Between two small-key jobs, so each meets the big key's line alone. */
  private static final Duration SMALL_GAP = Duration.ofMillis(10);

  private FairScenario() {}

  static List<Figure> run(BenchContext context, FairCounts counts) {
    List<Figure> figures = new ArrayList<>(consume(context, counts));
    figures.add(shareError(context, counts));
    figures.add(smallKeyWait(context, counts));
    figures.addAll(rankAndBytes(context, counts));
    return figures;
  }

  /** A key name of the fills: {@code tenant-} and five digits. */
  private static String tenant(int n) {
    return String.format("tenant-%05d", n);
  }

  /** A fresh queue with fairness on. */
  private static QueueName freshFairQueue(BenchContext context, String purpose) {
    QueueName queue = context.freshQueue(purpose);
    context.lineup().configure(queue, QueueSettings.builder().fair(true).build());
    return queue;
  }

  /**
   * Publishes {@code jobs} jobs with the bench's 100-byte payload, each of a key drawn at random
   * from {@code keys}; returns the ids of about {@code sample} of them, spread over the fill.
   */
  private static List<String> fillFair(
      BenchContext context, QueueName queue, int jobs, int keys, int sample) {
    int calls = (jobs + PER_CALL - 1) / PER_CALL;
    int stride = Math.max(1, calls * PER_CALL / Math.max(1, sample));
    byte[] payload = Payloads.payload();
    List<String> ids = Collections.synchronizedList(new ArrayList<>());
    InFlight.run(
        calls,
        IN_FLIGHT,
        call -> {
          SplittableRandom random = new SplittableRandom(call);
          List<NewJob> batch = new ArrayList<>(PER_CALL);
          for (int j = 0; j < PER_CALL; j++) {
            batch.add(NewJob.of(payload).key(tenant(random.nextInt(keys))));
          }
          List<PublishResult> results = context.lineup().publishAll(queue, batch);
          for (int j = 0; j < results.size(); j++) {
            if ((call * PER_CALL + j) % stride == 0) {
              ids.add(results.get(j).id());
            }
          }
        });
    return new ArrayList<>(ids);
  }

  // ---- fair_consume_per_s ----

  private static List<Figure> consume(BenchContext context, FairCounts counts) {
    context.say(
        "fair_consume_per_s: warm-up, %,d jobs over %,d keys filled and drained",
        counts.consumeJobs() / 10, counts.consumeKeys());
    QueueName warm = freshFairQueue(context, "fair-warm");
    fillFair(context, warm, counts.consumeJobs() / 10, counts.consumeKeys(), 0);
    ConsumeScenario.drain(
        context, warm, counts.consumeJobs() / 10 / PER_CALL * PER_CALL, "warm-up");
    context.redis().dropQueue(warm);

    List<IntFunction<Figure>> phases = new ArrayList<>();
    phases.add(round -> fairDrain(context, counts));
    phases.add(round -> plainDrain(context, counts));
    List<List<Figure>> rounds = Rounds.alternate(context, context.counts().consumeRounds(), phases);
    int chosen = Rounds.medianRatioRound(context, rounds, 0, 1, Figure::value, "");
    Figure fair = rounds.get(chosen).get(0);
    Figure plain = rounds.get(chosen).get(1);
    return List.of(
        fair,
        plain,
        new Figure(
            "fair_consume_ratio",
            fair.value() / plain.value(),
            Figure.Unit.RATIO,
            fair.redisCpuMicrosPerJob(),
            fair.benchCpuMicrosPerJob(),
            fair.jobs()));
  }

  private static Figure fairDrain(BenchContext context, FairCounts counts) {
    QueueName queue = freshFairQueue(context, "fair-consume");
    int jobs = (counts.consumeJobs() + PER_CALL - 1) / PER_CALL * PER_CALL;
    fillFair(context, queue, jobs, counts.consumeKeys(), 0);
    context.say(
        "fair_consume_per_s: %,d jobs over %,d keys waiting, worker concurrency %d",
        jobs, counts.consumeKeys(), ConsumeScenario.WORKER_CONCURRENCY);
    Figure figure = ConsumeScenario.drain(context, queue, jobs, "fair_consume_per_s");
    context.redis().dropQueue(queue);
    return figure;
  }

  private static Figure plainDrain(BenchContext context, FairCounts counts) {
    QueueName queue = context.freshQueue("fair-plain");
    int jobs = QueueFiller.filled(counts.consumeJobs());
    QueueFiller.fill(context, queue, jobs, 0);
    context.say("fair_consume_plain_per_s: %,d jobs waiting in a plain queue", jobs);
    Figure figure = ConsumeScenario.drain(context, queue, jobs, "fair_consume_plain_per_s");
    context.redis().dropQueue(queue);
    return figure;
  }

  // ---- fair_share_error ----

  private static Figure shareError(BenchContext context, FairCounts counts) {
    QueueName queue = freshFairQueue(context, "fair-share");
    int weights = 0;
    for (int weight : SHARE_WEIGHTS) {
      weights += weight;
    }
    // Each key gets a fifth more jobs than its share of the leases: all stay backlogged.
    for (int k = 0; k < SHARE_WEIGHTS.length; k++) {
      String key = "share-" + k;
      context
          .lineup()
          .fairness()
          .configure(queue, key, new KeySettings(SHARE_WEIGHTS[k], null, null, null, null, false));
      int jobs = (int) Math.ceil(1.2 * counts.shareLeases() * SHARE_WEIGHTS[k] / weights) + 1;
      byte[] payload = key.getBytes(StandardCharsets.UTF_8);
      for (int published = 0; published < jobs; published += PER_CALL) {
        List<NewJob> batch = new ArrayList<>();
        for (int j = published; j < Math.min(jobs, published + PER_CALL); j++) {
          batch.add(NewJob.of(payload).key(key));
        }
        context.lineup().publishAll(queue, batch);
      }
    }
    context.say(
        "fair_share_error: %,d leases over %d backlogged keys of weights 1-4",
        counts.shareLeases(), SHARE_WEIGHTS.length);
    Map<String, Integer> got = new HashMap<>();
    RedisProbe probe = RedisProbe.start(context);
    int leased = 0;
    while (leased < counts.shareLeases()) {
      Leases leases =
          context
              .lineup()
              .lease(queue, Math.min(SHARE_BATCH, counts.shareLeases() - leased), Duration.ZERO);
      if (leases.isEmpty()) {
        throw new IllegalStateException("fair_share_error: the queue ran dry at " + leased);
      }
      for (LeasedJob job : leases.jobs()) {
        got.merge(new String(job.payload(), StandardCharsets.UTF_8), 1, Integer::sum);
        context.lineup().ack(job);
      }
      leased += leases.jobs().size();
    }
    RedisProbe.Cost cost = probe.finish("fair_share_error", leased);
    double worst = 0;
    StringBuilder shares = new StringBuilder();
    for (int k = 0; k < SHARE_WEIGHTS.length; k++) {
      double expected = (double) leased * SHARE_WEIGHTS[k] / weights;
      int actual = got.getOrDefault("share-" + k, 0);
      worst = Math.max(worst, Math.abs(actual / expected - 1));
      shares.append(
          String.format("%s%d:%d/%.0f", k == 0 ? "" : " ", SHARE_WEIGHTS[k], actual, expected));
    }
    context.say("fair_share_error: weight:leased/expected %s", shares);
    context.redis().dropQueue(queue);
    return new Figure(
        "fair_share_error",
        worst * 100,
        Figure.Unit.PERCENT,
        cost.redisMicrosPerJob(),
        cost.benchMicrosPerJob(),
        leased);
  }

  // ---- fair_wait_small_key_ms_p99 ----

  private static Figure smallKeyWait(BenchContext context, FairCounts counts) {
    QueueName queue = freshFairQueue(context, "fair-small");
    byte[] big = "big".getBytes(StandardCharsets.UTF_8);
    for (int published = 0; published < counts.bigBacklog(); published += PER_CALL) {
      List<NewJob> batch = new ArrayList<>(PER_CALL);
      for (int j = 0; j < PER_CALL; j++) {
        batch.add(NewJob.of(big).key("big"));
      }
      context.lineup().publishAll(queue, batch);
    }
    int repeats = counts.smallRepeats();
    double[] millis = new double[repeats];
    AtomicLong seen = new AtomicLong();
    WorkerOptions options = WorkerOptions.defaults().withConcurrency(1);
    context.say(
        "fair_wait_small_key_ms_p99: %,d jobs of one key waiting, one worker draining them;"
            + " %d single jobs of another key",
        counts.bigBacklog(), repeats);
    try (Worker worker =
        context
            .lineup()
            .worker(
                queue,
                job -> {
                  String text = new String(job.payload(), StandardCharsets.UTF_8);
                  if (text.startsWith("small/")) {
                    String[] parts = text.split("/");
                    millis[Integer.parseInt(parts[1])] =
                        (System.nanoTime() - Long.parseLong(parts[2])) / 1e6;
                    seen.incrementAndGet();
                  }
                  return null;
                },
                options)) {
      worker.start();
      Pause.millis(200);
      for (int i = 0; i < repeats; i++) {
        context
            .lineup()
            .publish(queue, NewJob.ofText("small/" + i + "/" + System.nanoTime()).key("small"));
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (seen.get() <= i) {
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException(
                "fair_wait_small_key_ms_p99: job " + i + " not served in 10 s");
          }
          Pause.millis(1);
        }
        Pause.millis(SMALL_GAP.toMillis());
      }
    }
    long left = context.lineup().stats(queue).ready();
    if (left == 0) {
      throw new IllegalStateException(
          "fair_wait_small_key_ms_p99: the big key's backlog ran out before the last small job");
    }
    Percentiles percentiles = new Percentiles(millis);
    context.say(
        "fair_wait_small_key_ms_p99: p50 %.2f ms, p99 %.2f ms, max %.2f ms (%,d big jobs still waiting)",
        percentiles.at(50), percentiles.at(99), percentiles.max(), left);
    context.redis().dropQueue(queue);
    return new Figure(
        "fair_wait_small_key_ms_p99", percentiles.at(99), Figure.Unit.MILLISECONDS, 0, 0, repeats);
  }

  // ---- fair_rank_us_p99 and the bytes figures ----

  private static List<Figure> rankAndBytes(BenchContext context, FairCounts counts) {
    int jobs = (counts.rankJobs() + PER_CALL - 1) / PER_CALL * PER_CALL;
    QueueName plain = context.freshQueue("fair-plain-bytes");
    context.redis().awaitLazyFree();
    long before = context.redis().usedMemory();
    context.say("fair_plain_bytes_per_job: filling a plain queue with %,d jobs", jobs);
    QueueFiller.fill(context, plain, jobs, 0);
    double plainBytes = (context.redis().usedMemory() - before) / (double) jobs;
    context.redis().dropQueue(plain);

    QueueName queue = freshFairQueue(context, "fair-rank");
    context.redis().awaitLazyFree();
    before = context.redis().usedMemory();
    context.say(
        "fair_bytes_per_job: filling a fair queue with %,d jobs over %,d keys",
        jobs, counts.rankKeys());
    RedisProbe fillProbe = RedisProbe.start(context);
    List<String> ids = fillFair(context, queue, jobs, counts.rankKeys(), DeepQueue.SAMPLE_IDS);
    RedisProbe.Cost fillCost = fillProbe.finish("fair_bytes_per_job", jobs);
    double fairBytes = (context.redis().usedMemory() - before) / (double) jobs;

    Collections.shuffle(ids, new java.util.Random(7));
    RankScenario.lookUp(context, queue, ids, counts.rankLookups() / 10, "fair_rank_us_p99");
    BenchContext.collectGarbage();
    RedisProbe probe = RedisProbe.start(context);
    double[] micros =
        RankScenario.lookUp(context, queue, ids, counts.rankLookups(), "fair_rank_us_p99");
    RedisProbe.Cost cost = probe.finish("fair_rank_us_p99", counts.rankLookups());
    Percentiles percentiles = new Percentiles(micros);
    context.say(
        "fair_rank_us_p99: p50 %.0f µs, p99 %.0f µs, max %.0f µs",
        percentiles.at(50), percentiles.at(99), percentiles.max());
    context.redis().dropQueue(queue);
    return List.of(
        new Figure(
            "fair_rank_us_p99",
            percentiles.at(99),
            Figure.Unit.MICROSECONDS,
            cost.redisMicrosPerJob(),
            cost.benchMicrosPerJob(),
            counts.rankLookups()),
        new Figure(
            "fair_bytes_per_job",
            fairBytes,
            Figure.Unit.BYTES,
            fillCost.redisMicrosPerJob(),
            fillCost.benchMicrosPerJob(),
            jobs),
        new Figure("fair_plain_bytes_per_job", plainBytes, Figure.Unit.BYTES, 0, 0, jobs),
        new Figure("fair_bytes_ratio", fairBytes / plainBytes, Figure.Unit.RATIO, 0, 0, jobs));
  }
}
