package io.lineup.api;

import java.util.Set;

/**
 * The JSON names of a recurring schedule's fields in a {@code PUT …/schedules/{name}} body, as the
 * server reads them, and the values of its enumerations. The schedule's view ({@link
 * io.lineup.api.resource.Schedule}) writes the same names and adds what the schedule has done.
 */
public final class ScheduleFields {
  /** A six-field cron expression ({@code seconds minutes hours day-of-month month day-of-week}). */
  public static final String CRON = "cron";

  /** The IANA zone the cron expression is read in ({@code Europe/Paris}); UTC by default. */
  public static final String ZONE = "zone";

  /** The interval between ticks, in milliseconds, instead of {@link #CRON}. */
  public static final String EVERY_MS = "every_ms";

  /** The job every tick publishes (a queue's schedule): {@link #JOB_FIELDS}. */
  public static final String JOB = "job";

  /** The task every tick submits (an endpoint's schedule): {@link #TASK_FIELDS}. */
  public static final String TASK = "task";

  /** No tick before this time, epoch milliseconds. */
  public static final String START_AT = "start_at";

  /** No tick after this time, epoch milliseconds. */
  public static final String END_AT = "end_at";

  /** The schedule ends after this many published jobs. */
  public static final String MAX_RUNS = "max_runs";

  /** Each job is due a random 0 to this many milliseconds after its tick. */
  public static final String JITTER_MS = "jitter_ms";

  /** Whether the schedule is paused. */
  public static final String PAUSED = "paused";

  /** What to do with missed ticks: {@link #MISSED_VALUES}. */
  public static final String MISSED = "missed";

  /** The most jobs {@code catch_up} publishes for missed ticks. */
  public static final String CATCH_UP_MAX = "catch_up_max";

  /** How many runs the schedule's history keeps. */
  public static final String HISTORY_SIZE = "history_size";

  /** The job's priority (in {@link #JOB} and {@link #TASK}). */
  public static final String PRIORITY = PublishFields.PRIORITY;

  /** A key kept with the schedule's jobs, for fair queues (in {@link #JOB}). */
  public static final String KEY = "key";

  /** The values of {@link #MISSED}: one job for all missed ticks, one per tick, none. */
  public static final Set<String> MISSED_VALUES = Set.of("skip", "catch_up", "none");

  /** Every field of the body of a queue's schedule. */
  public static final Set<String> QUEUE_SCHEDULE =
      Set.of(
          CRON,
          ZONE,
          EVERY_MS,
          JOB,
          START_AT,
          END_AT,
          MAX_RUNS,
          JITTER_MS,
          PAUSED,
          MISSED,
          CATCH_UP_MAX,
          HISTORY_SIZE);

  /** Every field of the body of an endpoint's schedule: a queue's, with {@link #TASK}. */
  public static final Set<String> ENDPOINT_SCHEDULE =
      Set.of(
          CRON,
          ZONE,
          EVERY_MS,
          TASK,
          START_AT,
          END_AT,
          MAX_RUNS,
          JITTER_MS,
          PAUSED,
          MISSED,
          CATCH_UP_MAX,
          HISTORY_SIZE);

  /**
   * Every field of {@link #JOB}: the payload as in a publish ({@code payload} or {@code
   * payload_base64}), {@code priority}, {@code key}, {@code ttl_ms}, {@code max_attempts}, {@code
   * ttr_ms}.
   */
  public static final Set<String> JOB_FIELDS =
      Set.of(
          PublishFields.PAYLOAD,
          PublishFields.PAYLOAD_BASE64,
          PublishFields.PRIORITY,
          KEY,
          PublishFields.TTL_MS,
          PublishFields.MAX_ATTEMPTS,
          PublishFields.TTR_MS);

  /**
   * Every field of {@link #TASK}: a task submit's request ({@code method}, {@code path}, {@code
   * headers}, {@code body}, {@code body_text} or {@code body_base64}, {@code content_type}, {@code
   * callback_url}) and {@code priority}.
   */
  public static final Set<String> TASK_FIELDS =
      Set.of(
          "method",
          "path",
          "headers",
          "body",
          "body_text",
          "body_base64",
          "content_type",
          "callback_url",
          PublishFields.PRIORITY);

  /** The query parameter of {@code GET …/schedules/{name}/next}: how many ticks, 1 to 100. */
  public static final String COUNT = "count";

  /** The field of {@code GET …/schedules/{name}/next}'s answer: its ticks, epoch milliseconds. */
  public static final String TICKS_AT = "ticks_at";

  /** Default of {@link #COUNT}. */
  public static final int DEFAULT_NEXT_COUNT = 5;

  /** Largest {@link #COUNT}. */
  public static final int MAX_NEXT_COUNT = 100;

  private ScheduleFields() {}
}
