package io.lineup.bench;

import io.lineup.bench.report.Figure;
import io.lineup.core.model.QueueName;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * {@code rank_us_p99}: {@code Lineup.position(queue, id)} of jobs spread over a line of {@link
 * Counts#deepWaiting()} jobs, one call at a time (so each time is a caller's latency, not a share
 * of a pipeline), after a warm-up of a tenth as many lookups. {@code rank_us_p99_10m} with {@code
 * --deep-10m}.
 */
final class RankScenario {
  private RankScenario() {}

  static Figure run(BenchContext context, DeepQueue deep) {
    Counts counts = context.counts();
    List<String> ids = new ArrayList<>(deep.sampleIds());
    Collections.shuffle(ids);
    context.say("rank_us_p99: warm-up %,d lookups", counts.warmup(counts.rankLookups()));
    lookUp(context, deep, ids, counts.warmup(counts.rankLookups()));
    context.say(
        "rank_us_p99: %,d lookups among %,d waiting jobs",
        counts.rankLookups(), counts.deepWaiting());
    // A latency figure: start it with the garbage of earlier scenarios collected, so one of this
    // JVM's young collections (7 to 25 ms here) does not land in the measured window.
    BenchContext.collectGarbage();
    RedisProbe probe = RedisProbe.start(context);
    double[] micros = lookUp(context, deep, ids, counts.rankLookups());
    String name = "rank_us_p99" + counts.rankSuffix();
    RedisProbe.Cost cost = probe.finish(name, counts.rankLookups());
    Percentiles percentiles = new Percentiles(micros);
    context.say(
        "rank_us_p99: p50 %.0f µs, p99 %.0f µs, max %.0f µs",
        percentiles.at(50), percentiles.at(99), percentiles.max());
    return new Figure(
        name,
        percentiles.at(99),
        Figure.Unit.MICROSECONDS,
        cost.redisMicrosPerJob(),
        cost.benchMicrosPerJob(),
        counts.rankLookups());
  }

  private static double[] lookUp(BenchContext context, DeepQueue deep, List<String> ids, int n) {
    return lookUp(context, deep.queue(), ids, n, "rank_us_p99");
  }

  /**
   * The microseconds of {@code n} {@code position()} calls, one at a time, of the ids in turn.
   *
   * @throws IllegalStateException naming {@code figure} when a job is not in line
   */
  static double[] lookUp(
      BenchContext context, QueueName queue, List<String> ids, int n, String figure) {
    double[] micros = new double[n];
    for (int i = 0; i < n; i++) {
      String id = ids.get(i % ids.size());
      long start = System.nanoTime();
      long position = context.lineup().position(queue, id);
      micros[i] = (System.nanoTime() - start) / 1_000.0;
      if (position < 0) {
        throw new IllegalStateException(figure + ": job " + id + " is not in line");
      }
    }
    return micros;
  }
}
