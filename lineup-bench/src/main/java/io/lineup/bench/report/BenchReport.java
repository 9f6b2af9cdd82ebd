package io.lineup.bench.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything one run measured: where it ran, with which counts, each figure, and each figure that
 * was skipped and why. Filled by the bench as scenarios finish; read by {@link ReportTable} and
 * {@link JsonReport}.
 */
public final class BenchReport {
  /** The figure every other one is compared with. */
  public static final String REFERENCE = "raw_script_per_s";

  /**
   * Figure order in the table and the JSON, as issues 4 and 21 list them; others follow. A default
   * run measures all but {@link #DEEP_TEN_MILLION}.
   */
  public static final List<String> ORDER =
      List.of(
          REFERENCE,
          "floor_publish_us",
          "floor_consume_us",
          "publish_per_s",
          "publish_bulk_per_s",
          "publish_durable_per_s",
          "consume_per_s",
          "consume_floor_ratio",
          "consume_per_s_1m",
          "consume_per_s_10m",
          "consume_per_s_unarchived",
          "consume_per_s_archived",
          "archive_rows_per_s",
          "archive_lag_ms_p99",
          "late_ms_p50",
          "late_ms_p99",
          "late_ms_max",
          "late_ms_p50_10k",
          "late_ms_p99_10k",
          "late_ms_max_10k",
          "schedule_tick_late_ms_p99",
          "schedule_job_start_late_ms_p99",
          "schedule_ticks_exact_share",
          "fair_consume_per_s",
          "fair_consume_plain_per_s",
          "fair_consume_ratio",
          "fair_share_error",
          "fair_wait_small_key_ms_p99",
          "fair_rank_us_p99",
          "fair_bytes_per_job",
          "fair_plain_bytes_per_job",
          "fair_bytes_ratio",
          "rank_us_p99",
          "rank_us_p99_10m",
          "bytes_per_job",
          "script_publish_unpruned_us",
          "script_publish_us",
          "http_publish_per_s",
          "http_consume_per_s",
          "eta_mape",
          "eta_in_band",
          "dispatch_per_s",
          "dispatch_start_ms_p99",
          "dispatch_rate_error",
          "dispatch_rate_achieved",
          "adaptive_goodput_share",
          "adaptive_429_share",
          "adaptive_latency_p99_ratio",
          "adaptive_settle_ms",
          "deadline_miss_share",
          "refused_or_expired_endpoint_calls",
          "room_join_per_s",
          "room_poll_per_s",
          "room_eta_mape",
          "room_streams_idle_cpu",
          "room_streams_idle_redis_ops",
          "room_stream_rss_bytes",
          "room_join_ms_p99",
          "room_join_streams_ratio",
          "room_event_ms_p99",
          "pass_verify_us_p99",
          "pass_verify_repeat_us_p99",
          "pass_verify_tabulated_us_p99");

  /** The figures only {@code --deep-10m} measures, in place of their {@code _1m} twins. */
  public static final List<String> DEEP_TEN_MILLION =
      List.of("consume_per_s_10m", "rank_us_p99_10m");

  private final String mode;
  private final Map<String, Object> environment = new LinkedHashMap<>();
  private final Map<String, Object> counts = new LinkedHashMap<>();
  private final List<Figure> figures = new ArrayList<>();
  private final Map<String, String> skipped = new LinkedHashMap<>();
  private double seconds;

  /**
   * @param mode the run's mode as printed: {@code full}, {@code quick} or {@code smoke}
   */
  public BenchReport(String mode) {
    this.mode = mode;
  }

  /** {@code full}, {@code quick} or {@code smoke}. */
  public String mode() {
    return mode;
  }

  /** Describes where the run happened (Redis version and address, cores, Java). */
  public BenchReport environment(String name, Object value) {
    environment.put(name, value);
    return this;
  }

  /** Records one of the run's sizes (jobs, calls, concurrency), so a reader can repeat it. */
  public BenchReport count(String name, Object value) {
    counts.put(name, value);
    return this;
  }

  /** Records a measured figure. */
  public void add(Figure figure) {
    figures.add(figure);
  }

  /** Records that {@code figure} was not measured, and why. */
  public void skip(String figure, String reason) {
    skipped.put(figure, reason);
  }

  /** Wall time of the whole run, in seconds. */
  public void seconds(double seconds) {
    this.seconds = seconds;
  }

  /** Wall time of the whole run, in seconds. */
  public double seconds() {
    return seconds;
  }

  /** Where the run happened, by name. */
  public Map<String, Object> environment() {
    return Collections.unmodifiableMap(environment);
  }

  /** The run's sizes, by name. */
  public Map<String, Object> counts() {
    return Collections.unmodifiableMap(counts);
  }

  /** The figures in {@link #ORDER}. */
  public List<Figure> figures() {
    List<Figure> sorted = new ArrayList<>(figures);
    sorted.sort(Comparator.comparingInt(BenchReport::rank));
    return Collections.unmodifiableList(sorted);
  }

  private static int rank(Figure figure) {
    int index = ORDER.indexOf(figure.name());
    return index < 0 ? ORDER.size() : index;
  }

  /** Figures not measured → why. */
  public Map<String, String> skipped() {
    return Collections.unmodifiableMap(skipped);
  }

  /** Figure name → value, in the order measured. */
  public Map<String, Double> values() {
    Map<String, Double> values = new LinkedHashMap<>();
    figures().forEach(f -> values.put(f.name(), f.value()));
    return values;
  }

  /** The reference rate of this run, or NaN before it was measured. */
  public double reference() {
    return figures.stream()
        .filter(f -> f.name().equals(REFERENCE))
        .mapToDouble(Figure::value)
        .findFirst()
        .orElse(Double.NaN);
  }
}
