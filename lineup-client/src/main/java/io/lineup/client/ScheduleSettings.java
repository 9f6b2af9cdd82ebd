package io.lineup.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.api.PublishFields;
import io.lineup.api.ScheduleFields;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Base64;
import java.util.Locale;
import java.util.Objects;

/**
 * A recurring schedule for {@link SchedulesClient#upsert}: when it ticks (a cron expression in a
 * zone, or an interval) and what each tick makes: a job (a queue's schedule: {@link #payloadJson},
 * {@link #payload}, {@link #payloadText} and the job's options) or a task (an endpoint's schedule:
 * {@link #task}). Only the settings named are sent; the server gives the others their defaults
 * (docs/schedules.md) and answers 400 naming a field that is wrong, {@code cron} for a bad
 * expression.
 *
 * <pre>{@code
 * ScheduleSettings.cron("0 0 2 * * *", ZoneId.of("Europe/Paris"))
 *     .payloadJson("{\"report\":\"sales\"}")
 *     .ttl(Duration.ofHours(1))
 *     .missed(ScheduleSettings.Missed.CATCH_UP)
 * }</pre>
 */
public final class ScheduleSettings {
  /** What a schedule does with ticks it missed (no server ran, Redis was down). */
  public enum Missed {
    /** One job for all the missed ticks, then on time again; the default. */
    SKIP,
    /** One job per missed tick, at most {@link #catchUpMax} of them. */
    CATCH_UP,
    /** No job for the missed ticks. */
    NONE;

    String json() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final ObjectNode json = Json.object();
  private final ObjectNode job = Json.object();
  private NewTask task;

  private ScheduleSettings() {}

  /**
   * A schedule that ticks by a six-field cron expression ({@code seconds minutes hours day-of-month
   * month day-of-week}), read in a zone with its daylight saving.
   *
   * @param zone the zone, or null for UTC
   */
  public static ScheduleSettings cron(String expression, ZoneId zone) {
    ScheduleSettings settings = new ScheduleSettings();
    settings.json.put(ScheduleFields.CRON, Objects.requireNonNull(expression, "expression"));
    if (zone != null) {
      settings.json.put(ScheduleFields.ZONE, zone.getId());
    }
    return settings;
  }

  /**
   * A schedule that ticks every {@code interval} (10 ms to ten years; millisecond precision), from
   * its {@link #startAt} or from when it is first put.
   */
  public static ScheduleSettings every(Duration interval) {
    ScheduleSettings settings = new ScheduleSettings();
    settings.json.put(ScheduleFields.EVERY_MS, interval.toMillis());
    return settings;
  }

  /**
   * Each tick's job carries this JSON value; the server stores its compact form.
   *
   * @throws IllegalArgumentException when the text is not exactly one JSON value
   */
  public ScheduleSettings payloadJson(String json) {
    job.remove(PublishFields.PAYLOAD_BASE64);
    job.set(PublishFields.PAYLOAD, Json.parse(json));
    return this;
  }

  /** Each tick's job carries these bytes, stored exactly. */
  public ScheduleSettings payload(byte[] bytes) {
    job.remove(PublishFields.PAYLOAD);
    job.put(PublishFields.PAYLOAD_BASE64, Base64.getEncoder().encodeToString(bytes));
    return this;
  }

  /** Each tick's job carries this text's UTF-8 bytes, stored exactly. */
  public ScheduleSettings payloadText(String text) {
    return payload(text.getBytes(StandardCharsets.UTF_8));
  }

  /** The jobs' priority, -255 to 255 (default 0); at most the token's maximum. */
  public ScheduleSettings priority(int priority) {
    job.put(PublishFields.PRIORITY, priority);
    return this;
  }

  /** A key kept with the schedule for fair queues (1 to 256 bytes; stored, not used yet). */
  public ScheduleSettings key(String key) {
    job.put(ScheduleFields.KEY, key);
    return this;
  }

  /** Each job expires this long after its tick when not finished. */
  public ScheduleSettings ttl(Duration ttl) {
    job.put(PublishFields.TTL_MS, ttl.toMillis());
    return this;
  }

  /** The jobs' deliveries before dead letters, 1 to 1000; default the queue's. */
  public ScheduleSettings maxAttempts(int maxAttempts) {
    job.put(PublishFields.MAX_ATTEMPTS, maxAttempts);
    return this;
  }

  /** The jobs' lease length, 100 ms to 24 h; default the queue's. */
  public ScheduleSettings timeToRun(Duration timeToRun) {
    job.put(PublishFields.TTR_MS, timeToRun.toMillis());
    return this;
  }

  /**
   * Each tick submits this task to the endpoint (an endpoint's schedule, {@link
   * SchedulesClient#upsert(EndpointName, String, ScheduleSettings)}): its method, path, headers,
   * body, callback URL and priority. A delay, due time or idempotency key is refused (400): the
   * ticks say when.
   */
  public ScheduleSettings task(NewTask task) {
    this.task = Objects.requireNonNull(task, "task");
    return this;
  }

  /** No tick before this time (sent as epoch milliseconds; finer precision is dropped). */
  public ScheduleSettings startAt(Instant start) {
    json.put(ScheduleFields.START_AT, start.toEpochMilli());
    return this;
  }

  /** No tick after this time (sent as epoch milliseconds; finer precision is dropped). */
  public ScheduleSettings endAt(Instant end) {
    json.put(ScheduleFields.END_AT, end.toEpochMilli());
    return this;
  }

  /** The schedule ends after this many published jobs (1 or more). */
  public ScheduleSettings maxRuns(long runs) {
    json.put(ScheduleFields.MAX_RUNS, runs);
    return this;
  }

  /** Each job is due a random 0 to {@code jitter} after its tick (at most a day). */
  public ScheduleSettings jitter(Duration jitter) {
    json.put(ScheduleFields.JITTER_MS, jitter.toMillis());
    return this;
  }

  /**
   * Whether the schedule is paused. Not named, an upsert keeps the schedule's pause as it stands (a
   * new one is active).
   */
  public ScheduleSettings paused(boolean paused) {
    json.put(ScheduleFields.PAUSED, paused);
    return this;
  }

  /** What to do with missed ticks (default {@link Missed#SKIP}). */
  public ScheduleSettings missed(Missed missed) {
    json.put(ScheduleFields.MISSED, missed.json());
    return this;
  }

  /** The most jobs {@link Missed#CATCH_UP} publishes for missed ticks, 1 to 1000 (default 100). */
  public ScheduleSettings catchUpMax(int jobs) {
    json.put(ScheduleFields.CATCH_UP_MAX, jobs);
    return this;
  }

  /** How many runs the history keeps, 0 to 1000 (default 20). */
  public ScheduleSettings historySize(int runs) {
    json.put(ScheduleFields.HISTORY_SIZE, runs);
    return this;
  }

  /** The body of a queue's schedule: these settings and the job. */
  JsonNode toQueueJson() {
    if (task != null) {
      throw new IllegalArgumentException(
          "a queue's schedule publishes a job: give a payload, not a task");
    }
    ObjectNode body = json.deepCopy();
    body.set(ScheduleFields.JOB, job.deepCopy());
    return body;
  }

  /** The body of an endpoint's schedule: these settings and the task. */
  JsonNode toEndpointJson() {
    if (task == null) {
      throw new IllegalArgumentException("an endpoint's schedule submits a task: give task(...)");
    }
    if (!job.isEmpty()) {
      throw new IllegalArgumentException(
          "an endpoint's schedule submits a task: its payload and job options are the task's");
    }
    ObjectNode body = json.deepCopy();
    body.set(ScheduleFields.TASK, task.toJson());
    return body;
  }
}
