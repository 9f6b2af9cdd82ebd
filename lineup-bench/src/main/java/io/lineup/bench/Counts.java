package io.lineup.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The sizes of one run. A full run uses the sizes issue 4 names; a quick run the same scenarios
 * with smaller counts (its figures are noisier and are labelled quick); a smoke run tiny counts,
 * for the module's own test.
 *
 * @param mode {@code full}, {@code quick} or {@code smoke}
 * @param rawCalls EVALSHA calls of the reference script
 * @param publishJobs single publishes
 * @param bulkJobs jobs published in bulk calls of {@link BulkPublishScenario#JOBS_PER_CALL}
 * @param consumeJobs jobs waiting, then leased and acked, for {@code consume_per_s}
 * @param deepWaiting jobs waiting in the deep queue ({@code bytes_per_job}, {@code rank_us_p99},
 *     {@code consume_per_s_1m})
 * @param deepConsumeJobs jobs leased and acked from the front of the deep queue
 * @param delayedJobs delayed jobs of the lateness scenario
 * @param delaySpreadMs the time over which their due times are spread, in ms
 * @param rankLookups position lookups in the deep queue
 * @param httpPublishJobs single-job POSTs
 * @param httpConsumeJobs jobs leased and acked over HTTP
 * @param warmupShare the share of each count run first, unmeasured, as warm-up
 * @param minWarmup the fewest operations a warm-up runs
 * @param warmupMinSeconds shortest the bench's own warm-up runs before an in-process figure of
 *     throughput ({@link SteadyWarmup})
 * @param warmupMaxSeconds longest that warm-up may run; 0 runs one round
 * @param httpWarmupMinSeconds shortest the server warm-up runs ({@link ServerWarmup})
 * @param httpWarmupSeconds longest the server warm-up may run before the HTTP figures ({@link
 *     ServerWarmup}); 0 runs one round
 * @param rounds how many times the measured phases of the lateness and HTTP figures run (see {@link
 *     Rounds}); the report takes their median
 * @param consumeRounds how many round pairs of {@code consume_per_s} and {@code consume_per_s_1m}
 *     run; the report takes the pair with the median ratio ({@link Rounds#medianPair}). More than
 *     {@code rounds}, because the deep figure is judged as a ratio of two noisy ones
 * @param etaJobs jobs consumed at a rate limit while their ETAs are read ({@link EtaScenario})
 * @param etaRateLimit the rate limit of that queue, in jobs per second
 * @param etaReadAfterMs time from the start of that consume to the first ETA reading, in ms
 * @param delayedJobs10k delayed jobs of the {@code late_ms_*_10k} scenario
 * @param delaySpreadMs10k the time over which their due times are spread, in ms
 * @param deepName how the deep figures are named after the depth of their queue: {@code 1m} ({@code
 *     consume_per_s_1m}, {@code rank_us_p99}) or {@code 10m} ({@code consume_per_s_10m}, {@code
 *     rank_us_p99_10m}; {@link #tenMillionDeep()})
 */
public record Counts(
    String mode,
    int rawCalls,
    int publishJobs,
    int bulkJobs,
    int consumeJobs,
    int deepWaiting,
    int deepConsumeJobs,
    int delayedJobs,
    int delaySpreadMs,
    int rankLookups,
    int httpPublishJobs,
    int httpConsumeJobs,
    double warmupShare,
    int minWarmup,
    int warmupMinSeconds,
    int warmupMaxSeconds,
    int httpWarmupMinSeconds,
    int httpWarmupSeconds,
    int rounds,
    int consumeRounds,
    int etaJobs,
    int etaRateLimit,
    int etaReadAfterMs,
    int delayedJobs10k,
    int delaySpreadMs10k,
    String deepName) {

  /** The sizes of issue 4: 200,000 jobs to consume, 1,000,000 waiting. */
  public static Counts full() {
    return new Counts(
        "full", 1_000_000, 200_000, 1_000_000, 200_000, 1_000_000, 200_000, 2_000, 2_000, 20_000,
        50_000, 50_000, 0.1, 2_000, 5, 30, 45, 120, 3, 5, 20_000, 1_000, 5_000, 100_000, 10_000,
        "1m");
  }

  /**
   * Finishes in about four minutes on two cores (most of it warm-ups): 20,000 instead of 200,000,
   * 100,000 instead of 1,000,000.
   */
  public static Counts quick() {
    return new Counts(
        "quick", 100_000, 20_000, 100_000, 20_000, 100_000, 20_000, 2_000, 2_000, 2_000, 5_000,
        5_000, 0.1, 1_000, 1, 10, 12, 25, 3, 5, 10_000, 1_000, 5_000, 20_000, 2_000, "1m");
  }

  /** A few hundred of each, to prove every scenario runs; its figures mean nothing. */
  public static Counts smoke() {
    return new Counts(
        "smoke", 2_000, 500, 1_000, 500, 2_000, 500, 100, 300, 200, 200, 200, 0.1, 50, 0, 0, 0, 0,
        2, 3, 600, 100, 1_000, 1_000, 500, "1m");
  }

  /**
   * These counts with a deep queue ten times as deep ({@code --deep-10m}): 10,000,000 waiting in a
   * full run (1,000,000 in a quick one, 20,000 in a smoke run), figures named {@code _10m}. The
   * jobs consumed from its front stay as they are.
   */
  public Counts tenMillionDeep() {
    return new Counts(
        mode,
        rawCalls,
        publishJobs,
        bulkJobs,
        consumeJobs,
        deepWaiting * 10,
        deepConsumeJobs,
        delayedJobs,
        delaySpreadMs,
        rankLookups,
        httpPublishJobs,
        httpConsumeJobs,
        warmupShare,
        minWarmup,
        warmupMinSeconds,
        warmupMaxSeconds,
        httpWarmupMinSeconds,
        httpWarmupSeconds,
        rounds,
        consumeRounds,
        etaJobs,
        etaRateLimit,
        etaReadAfterMs,
        delayedJobs10k,
        delaySpreadMs10k,
        "10m");
  }

  /** The suffix of the deep consume figure: {@code _1m} or {@code _10m}. */
  public String deepSuffix() {
    return "_" + deepName;
  }

  /**
   * The suffix of the deep rank figure: none at the default depth, {@code _10m} ten times deeper.
   */
  public String rankSuffix() {
    return deepName.equals("1m") ? "" : "_" + deepName;
  }

  /** The unmeasured warm-up count for a scenario of {@code count} operations. */
  public int warmup(int count) {
    return Math.max(minWarmup, (int) (count * warmupShare));
  }

  /** The counts by name, for the report. */
  public Map<String, Object> asMap() {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("raw_calls", rawCalls);
    map.put("publish_jobs", publishJobs);
    map.put("bulk_jobs", bulkJobs);
    map.put("consume_jobs", consumeJobs);
    map.put("deep_waiting", deepWaiting);
    map.put("deep_consume_jobs", deepConsumeJobs);
    map.put("delayed_jobs", delayedJobs);
    map.put("delay_spread_ms", delaySpreadMs);
    map.put("rank_lookups", rankLookups);
    map.put("http_publish_jobs", httpPublishJobs);
    map.put("http_consume_jobs", httpConsumeJobs);
    map.put("warmup_share", warmupShare);
    map.put("warmup_min_s", warmupMinSeconds);
    map.put("warmup_max_s", warmupMaxSeconds);
    map.put("http_warmup_min_s", httpWarmupMinSeconds);
    map.put("http_warmup_max_s", httpWarmupSeconds);
    map.put("rounds", rounds);
    map.put("consume_rounds", consumeRounds);
    map.put("eta_jobs", etaJobs);
    map.put("eta_rate_limit", etaRateLimit);
    map.put("eta_read_after_ms", etaReadAfterMs);
    map.put("delayed_jobs_10k", delayedJobs10k);
    map.put("delay_spread_ms_10k", delaySpreadMs10k);
    return map;
  }
}
