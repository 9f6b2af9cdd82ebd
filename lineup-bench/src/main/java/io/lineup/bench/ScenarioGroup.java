package io.lineup.bench;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Scenarios that run together, as {@code --only} names them. */
public enum ScenarioGroup {
  /** {@code publish_per_s}. */
  PUBLISH,
  /** {@code publish_bulk_per_s}. */
  BULK,
  /** {@code publish_durable_per_s}: single publishes each acknowledged by a replica. */
  DURABLE,
  /** {@code consume_per_s}. */
  CONSUME,
  /**
   * The consume drain with the SQL archive on (a local PostgreSQL): {@code consume_per_s_archived},
   * {@code archive_rows_per_s}, {@code archive_lag_ms_p99}.
   */
  ARCHIVE,
  /** The deep queue: {@code bytes_per_job}, {@code rank_us_p99}, {@code consume_per_s_1m}. */
  DEEP,
  /** {@code late_ms_p50}, {@code late_ms_p99}, {@code late_ms_max}. */
  LATE,
  /**
   * {@code late_ms_p50_10k}, {@code late_ms_p99_10k}, {@code late_ms_max_10k}: 100,000 delayed jobs
   * due over 10 s.
   */
  LATE10K,
  /**
   * Recurring schedules: {@code schedule_tick_late_ms_p99}, {@code schedule_ticks_exact_share}
   * (1,000 schedules every second for a minute in a full run).
   */
  SCHEDULE,
  /**
   * Fair queues: {@code fair_consume_per_s} and its ratio to a plain queue's drain, {@code
   * fair_share_error}, {@code fair_wait_small_key_ms_p99}, {@code fair_rank_us_p99}, {@code
   * fair_bytes_ratio}.
   */
  FAIR,
  /** {@code eta_mape}, {@code eta_in_band}. */
  ETA,
  /** {@code http_publish_per_s}, {@code http_consume_per_s}. */
  HTTP,
  /** {@code script_publish_us}, {@code script_publish_unpruned_us}: what script pruning saves. */
  PRUNE,
  /**
   * API dispatch through the server to a local target: {@code dispatch_per_s}, {@code
   * dispatch_start_ms_p99}, {@code dispatch_rate_error}, {@code dispatch_rate_achieved}.
   */
  DISPATCH,
  /**
   * Dispatch to an endpoint of limited capacity through the server (issue 53): {@code
   * adaptive_goodput_share}, {@code adaptive_429_share}, {@code adaptive_latency_p99_ratio} and
   * {@code adaptive_settle_ms} while the capacity steps 50 → 20 → 80; {@code deadline_miss_share}
   * and {@code refused_or_expired_endpoint_calls} at twice a fixed capacity.
   */
  ADAPTIVE,
  /**
   * The waiting room: {@code room_join_per_s} and {@code room_eta_mape} at the engine level, {@code
   * room_poll_per_s} through the server.
   */
  ROOM,
  /**
   * The offline pass check: {@code pass_verify_us_p99} (the JDK's Ed25519, the default), {@code
   * pass_verify_repeat_us_p99} (a remembered pass), {@code pass_verify_tabulated_us_p99} (the
   * opt-in engine).
   */
  PASS;

  /**
   * The group of a lower-case name.
   *
   * @throws IllegalArgumentException for an unknown name
   */
  static ScenarioGroup named(String name) {
    try {
      return valueOf(name.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "Unknown scenario group '"
              + name
              + "'; known: "
              + Arrays.stream(values())
                  .map(g -> g.name().toLowerCase(Locale.ROOT))
                  .collect(Collectors.joining(", ")));
    }
  }
}
