package io.lineup.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.api.ErrorCode;
import io.lineup.api.PublishFields;
import io.lineup.api.ScheduleFields;
import io.lineup.api.resource.JsonText;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.Limits;
import io.lineup.core.model.MissedTicks;
import io.lineup.core.model.Schedule;
import io.lineup.core.model.ScheduleRun;
import io.lineup.core.model.ScheduleSpec;
import io.lineup.dispatch.TaskRequest;
import io.lineup.server.auth.Principal;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.Json;
import io.lineup.server.http.JsonFields;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The JSON of a recurring schedule ({@code …/schedules/{name}}): its body read into the engine's
 * {@link ScheduleSpec} (names of {@link ScheduleFields}), and the engine's {@link Schedule} written
 * as the API's {@link io.lineup.api.resource.Schedule}. A schedule's times are epoch milliseconds,
 * as every {@code _at} field of the API.
 */
final class ScheduleJson {
  /** Longest cron expression read, in characters. */
  static final int MAX_CRON_LENGTH = 256;

  /** Longest zone id read, in characters. */
  static final int MAX_ZONE_LENGTH = 64;

  /** The engine's field names (its {@link InvalidArgumentException#field()}) as the body's. */
  private static final Map<String, String> ENGINE_FIELDS =
      Map.ofEntries(
          Map.entry("name", "name"),
          Map.entry("cron", ScheduleFields.CRON),
          Map.entry("zone", ScheduleFields.ZONE),
          Map.entry("every", ScheduleFields.EVERY_MS),
          Map.entry("startAt", ScheduleFields.START_AT),
          Map.entry("endAt", ScheduleFields.END_AT),
          Map.entry("maxRuns", ScheduleFields.MAX_RUNS),
          Map.entry("jitter", ScheduleFields.JITTER_MS),
          Map.entry("missed", ScheduleFields.MISSED),
          Map.entry("catchUpMax", ScheduleFields.CATCH_UP_MAX),
          Map.entry("historySize", ScheduleFields.HISTORY_SIZE),
          Map.entry("payload", ScheduleFields.JOB + "." + PublishFields.PAYLOAD),
          Map.entry("priority", ScheduleFields.JOB + "." + PublishFields.PRIORITY),
          Map.entry("key", ScheduleFields.JOB + "." + ScheduleFields.KEY),
          Map.entry("ttl", ScheduleFields.JOB + "." + PublishFields.TTL_MS),
          Map.entry("maxAttempts", ScheduleFields.JOB + "." + PublishFields.MAX_ATTEMPTS),
          Map.entry("timeToRun", ScheduleFields.JOB + "." + PublishFields.TTR_MS));

  private ScheduleJson() {}

  /**
   * What a body says of when a schedule ticks and how it runs, read onto a builder: the fields of
   * {@link ScheduleFields} but the job or task, which the caller reads ({@link #job}, {@link
   * TaskJson#template}).
   *
   * @param f the body's fields
   * @return the spec, once the caller's {@code template} has set the job's values
   * @throws ApiException 400 naming the first field that is wrong ({@code cron} for a bad cron
   *     expression, with the cron field it found wrong in the message)
   */
  static ScheduleSpec read(String name, JsonFields f, Consumer<ScheduleSpec.Builder> template) {
    String cron = f.optionalText(ScheduleFields.CRON, MAX_CRON_LENGTH);
    Long everyMs =
        f.optionalLong(ScheduleFields.EVERY_MS, ScheduleSpec.MIN_EVERY_MS, Limits.MAX_DELAY_MS);
    String zoneText = f.optionalText(ScheduleFields.ZONE, MAX_ZONE_LENGTH);
    if (cron != null && everyMs != null) {
      throw ApiException.invalidField(ScheduleFields.EVERY_MS, "give cron or every_ms, not both");
    }
    if (cron == null && everyMs == null) {
      throw ApiException.invalidField(
          ScheduleFields.CRON,
          "is required (six fields: seconds minutes hours day-of-month month day-of-week),"
              + " or every_ms for an interval");
    }
    if (zoneText != null && cron == null) {
      throw ApiException.invalidField(ScheduleFields.ZONE, "only a cron schedule has a zone");
    }
    ScheduleSpec.Builder builder =
        cron != null
            ? ScheduleSpec.cron(name, cron, zoneText == null ? null : zone(zoneText))
            : ScheduleSpec.every(name, Duration.ofMillis(everyMs));
    builder.startAt(time(f, ScheduleFields.START_AT));
    builder.endAt(time(f, ScheduleFields.END_AT));
    builder.maxRuns(f.optionalLong(ScheduleFields.MAX_RUNS, 1, Long.MAX_VALUE / 2));
    Long jitter = f.optionalLong(ScheduleFields.JITTER_MS, 0, ScheduleSpec.MAX_JITTER_MS);
    builder.jitter(Duration.ofMillis(jitter == null ? 0 : jitter));
    builder.paused(Boolean.TRUE.equals(f.optionalBoolean(ScheduleFields.PAUSED)));
    builder.missed(missed(f));
    Integer catchUp = f.optionalInt(ScheduleFields.CATCH_UP_MAX, 1, ScheduleSpec.MAX_CATCH_UP);
    builder.catchUpMax(catchUp == null ? ScheduleSpec.DEFAULT_CATCH_UP : catchUp);
    Integer history = f.optionalInt(ScheduleFields.HISTORY_SIZE, 0, ScheduleSpec.MAX_HISTORY);
    builder.historySize(history == null ? ScheduleSpec.DEFAULT_HISTORY : history);
    template.accept(builder);
    try {
      return builder.build();
    } catch (InvalidArgumentException e) {
      throw ApiException.invalidField(httpField(e.field()), e.reason());
    }
  }

  /**
   * The spec to upsert: a body without {@code paused} keeps the pause of the schedule as it stands.
   *
   * @param spec the spec as the body gives it
   * @param before the schedule as it stands, or null when there is none
   */
  static ScheduleSpec keepingPause(JsonFields f, ScheduleSpec spec, Schedule before) {
    if (before != null && !f.has(ScheduleFields.PAUSED) && before.spec().paused()) {
      return spec.withPaused(true);
    }
    return spec;
  }

  /** The body's name for a field the engine's check named. */
  static String httpField(String engineField) {
    return engineField == null ? null : ENGINE_FIELDS.getOrDefault(engineField, engineField);
  }

  /**
   * Reads the {@code job} of a queue's schedule onto a builder: its payload as a publish takes it,
   * priority (at most the token's), key, ttl_ms, max_attempts and ttr_ms.
   *
   * @throws ApiException 400 naming the field ({@code job.ttl_ms}), 403 {@code
   *     priority_not_allowed}, 413 {@code payload_too_large}
   */
  static void job(
      JsonFields body, NewJobReader reader, Principal principal, ScheduleSpec.Builder builder) {
    JsonFields f = body.optionalObject(ScheduleFields.JOB, ScheduleFields.JOB_FIELDS);
    if (f == null) {
      throw ApiException.invalidField(
          ScheduleFields.JOB, "is required: a JSON object with the payload of every tick's job");
    }
    builder.payload(reader.payload(f));
    Integer priority =
        f.optionalInt(PublishFields.PRIORITY, Limits.MIN_PRIORITY, Limits.MAX_PRIORITY);
    int p = priority == null ? 0 : priority;
    if (p > principal.maxPriority()) {
      throw new ApiException(
          ErrorCode.PRIORITY_NOT_ALLOWED,
          f.path(PublishFields.PRIORITY),
          "this token may publish with priority up to " + principal.maxPriority() + ", got " + p);
    }
    builder.priority(p);
    builder.key(f.optionalText(ScheduleFields.KEY, ScheduleSpec.MAX_KEY_BYTES));
    Long ttl = f.optionalLong(PublishFields.TTL_MS, 1, Limits.MAX_TTL_MS);
    builder.ttl(ttl == null ? null : Duration.ofMillis(ttl));
    builder.maxAttempts(f.optionalInt(PublishFields.MAX_ATTEMPTS, 1, Limits.MAX_ATTEMPTS));
    Long ttr = f.optionalLong(PublishFields.TTR_MS, Limits.MIN_TTR_MS, Limits.MAX_TTR_MS);
    builder.timeToRun(ttr == null ? null : Duration.ofMillis(ttr));
  }

  private static ZoneId zone(String text) {
    try {
      return ZoneId.of(text);
    } catch (DateTimeException e) {
      throw ApiException.invalidField(
          ScheduleFields.ZONE,
          "must be a time zone id such as UTC or Europe/Paris, got '" + text + "'");
    }
  }

  /** Latest time a schedule's body takes: 9999-12-31T23:59:59.999Z, in epoch milliseconds. */
  static final long MAX_TIME_MS = 253_402_300_799_999L;

  private static Instant time(JsonFields f, String field) {
    JsonNode raw = f.raw(field);
    if (raw != null && raw.isTextual()) {
      throw ApiException.invalidField(
          f.path(field),
          "must be a time in epoch milliseconds (a JSON integer such as 1893456000000), got text '"
              + abbreviate(raw.asText())
              + "'");
    }
    Long ms = f.optionalLong(field, 0, MAX_TIME_MS);
    return ms == null ? null : Instant.ofEpochMilli(ms);
  }

  private static String abbreviate(String text) {
    return text.length() <= 64 ? text : text.substring(0, 64) + "…";
  }

  private static MissedTicks missed(JsonFields f) {
    String text = f.optionalText(ScheduleFields.MISSED, 16);
    if (text == null) {
      return MissedTicks.SKIP;
    }
    if (!ScheduleFields.MISSED_VALUES.contains(text)) {
      throw ApiException.invalidField(
          ScheduleFields.MISSED, "must be skip, catch_up or none, got '" + text + "'");
    }
    return MissedTicks.valueOf(text.toUpperCase(Locale.ROOT));
  }

  /** A time as a schedule's answers write it: epoch milliseconds; null for null. */
  static Long time(Instant at) {
    return at == null ? null : at.toEpochMilli();
  }

  /**
   * A queue's schedule as the API shows it.
   *
   * @param history its latest runs, newest first
   * @param encoding how its job's payload is written
   */
  static io.lineup.api.resource.Schedule view(
      Schedule schedule, List<ScheduleRun> history, PayloadEncoding encoding) {
    ScheduleSpec spec = schedule.spec();
    byte[] payload = spec.payload();
    JsonText json = Views.asJson(payload, encoding);
    io.lineup.api.resource.Schedule.Job job =
        new io.lineup.api.resource.Schedule.Job(
            json,
            Views.asBase64(payload, json),
            spec.priority(),
            spec.key(),
            millis(spec.ttl()),
            spec.maxAttempts(),
            millis(spec.timeToRun()));
    return view(schedule, history, schedule.queue().name(), null, job, null);
  }

  /**
   * An endpoint's schedule as the API shows it: its job's payload read back as the task it is.
   *
   * @param endpoint the endpoint's name within the namespace
   * @param history its latest runs, newest first
   */
  static io.lineup.api.resource.Schedule endpointView(
      Schedule schedule, String endpoint, List<ScheduleRun> history) {
    return view(schedule, history, null, endpoint, null, task(schedule.spec()));
  }

  private static io.lineup.api.resource.Schedule.TaskTemplate task(ScheduleSpec spec) {
    TaskRequest request;
    try {
      request = TaskRequest.decode(spec.payload());
    } catch (IllegalArgumentException e) {
      // Not put through the endpoint's routes: show no request rather than fail the read.
      return null;
    }
    byte[] body = request.body();
    JsonText json = null;
    String text = null;
    String base64 = null;
    if (body.length > 0) {
      String type = request.contentType() == null ? "" : request.contentType();
      if (type.toLowerCase(Locale.ROOT).contains("json") && Json.isJson(body)) {
        json = new JsonText(new String(body, StandardCharsets.UTF_8));
      } else if (utf8(body) != null) {
        text = utf8(body);
      } else {
        base64 = Base64.getEncoder().encodeToString(body);
      }
    }
    return new io.lineup.api.resource.Schedule.TaskTemplate(
        request.method(),
        request.path(),
        request.headers(),
        request.contentType(),
        json,
        text,
        base64,
        request.callbackUrl(),
        spec.priority());
  }

  private static String utf8(byte[] bytes) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  private static io.lineup.api.resource.Schedule view(
      Schedule schedule,
      List<ScheduleRun> history,
      String queue,
      String endpoint,
      io.lineup.api.resource.Schedule.Job job,
      io.lineup.api.resource.Schedule.TaskTemplate task) {
    ScheduleSpec spec = schedule.spec();
    return new io.lineup.api.resource.Schedule(
        schedule.queue().namespace(),
        queue,
        endpoint,
        spec.name(),
        spec.cron(),
        spec.isCron() ? spec.zone().getId() : null,
        millis(spec.every()),
        job,
        task,
        time(spec.startAt()),
        time(spec.endAt()),
        spec.maxRuns(),
        spec.jitter().toMillis(),
        spec.paused(),
        spec.missed().name().toLowerCase(Locale.ROOT),
        spec.catchUpMax(),
        spec.historySize(),
        time(schedule.nextTick().orElse(null)),
        schedule.runs(),
        time(schedule.lastTick().orElse(null)),
        schedule.state().name().toLowerCase(Locale.ROOT),
        schedule.version(),
        history.stream().map(ScheduleJson::run).toList());
  }

  private static io.lineup.api.resource.Schedule.Run run(ScheduleRun run) {
    return new io.lineup.api.resource.Schedule.Run(
        run.tick().toEpochMilli(),
        run.jobId(),
        run.outcome().name().toLowerCase(Locale.ROOT),
        run.publishedAt().toEpochMilli());
  }

  private static Long millis(Duration d) {
    return d == null ? null : d.toMillis();
  }

  /** The body's fields of a schedule, refusing any other. */
  static JsonFields fields(JsonNode body, boolean endpoint) {
    return JsonFields.of(
        body, "", endpoint ? ScheduleFields.ENDPOINT_SCHEDULE : ScheduleFields.QUEUE_SCHEDULE);
  }
}
