package io.lineup.server.api;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import io.lineup.api.resource.JsonText;
import io.lineup.core.model.DeadJob;
import io.lineup.core.model.DeadPage;
import io.lineup.core.model.Eta;
import io.lineup.core.model.JobActionResult;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.JobListPage;
import io.lineup.core.model.JobState;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.ListedJob;
import io.lineup.core.model.PublishResult;
import io.lineup.core.model.QueueSettings;
import io.lineup.core.model.QueueStats;
import io.lineup.server.http.Json;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;

/**
 * The engine's answers as the API's resource records ({@code io.lineup.api.resource}), converted at
 * the edge: the records fix the JSON names, their order and which are null or absent. Times are
 * epoch milliseconds, durations milliseconds.
 */
public final class Views {
  /**
   * Reads the settings' tree into their record: {@link SettingsJson} stays the one place that names
   * a setting's JSON type.
   */
  private static final ObjectReader SETTINGS =
      Json.MAPPER
          .readerFor(io.lineup.api.resource.QueueSettings.class)
          .without(
              DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS,
              DeserializationFeature.USE_BIG_INTEGER_FOR_INTS);

  private Views() {}

  /** A publish result: {@code id, created, state, due_at, position}. */
  public static io.lineup.api.resource.PublishResult published(PublishResult result) {
    return new io.lineup.api.resource.PublishResult(
        result.id(),
        result.created(),
        state(result.state()),
        millis(result.dueAt()),
        result.position());
  }

  /** A leased job, as the lease route answers it. */
  public static io.lineup.api.resource.LeasedJob leased(LeasedJob job, PayloadEncoding encoding) {
    JsonText payload = asJson(job.payload(), encoding);
    return new io.lineup.api.resource.LeasedJob(
        job.queue().toString(),
        job.id(),
        payload,
        asBase64(job.payload(), payload),
        job.token(),
        job.attempt(),
        job.maxAttempts(),
        job.priority(),
        millis(job.leaseDeadline()),
        millis(job.createdAt()),
        millis(job.dueAt()),
        job.trace() == null ? null : job.trace().traceparent(),
        job.trace() == null ? null : job.trace().tracestate());
  }

  /** A job as it stands. */
  public static io.lineup.api.resource.Job job(JobInfo job, PayloadEncoding encoding) {
    Eta eta = job.eta();
    JsonText payload = asJson(job.payload(), encoding);
    // A job without a result has "result": null; one whose result is not JSON has result_base64.
    JsonText result = job.result() == null ? JsonText.NULL : asJson(job.result(), encoding);
    return new io.lineup.api.resource.Job(
        job.queue().toString(),
        job.id(),
        state(job.state()),
        job.priority(),
        job.attempts(),
        job.maxAttempts(),
        millis(job.timeToRun()),
        millis(job.createdAt()),
        millis(job.dueAt()),
        millis(job.expiresAt()),
        millis(job.startedAt()),
        millis(job.finishedAt()),
        millis(job.leaseDeadline()),
        job.lastError(),
        job.key(),
        job.position(),
        eta == null ? null : millis(eta.point()),
        eta == null ? null : millis(eta.low()),
        eta == null ? null : millis(eta.high()),
        payload,
        asBase64(job.payload(), payload),
        result,
        job.result() == null ? null : asBase64(job.result(), result),
        job.trace() == null ? null : job.trace().traceparent(),
        job.trace() == null ? null : job.trace().tracestate());
  }

  /** A dead letter. */
  public static io.lineup.api.resource.DeadJob dead(DeadJob job, PayloadEncoding encoding) {
    JsonText payload = asJson(job.payload(), encoding);
    return new io.lineup.api.resource.DeadJob(
        job.id(),
        job.priority(),
        job.attempts(),
        job.lastError(),
        millis(job.diedAt()),
        payload,
        asBase64(job.payload(), payload));
  }

  /** A job in a list by state. */
  public static io.lineup.api.resource.ListedJob listed(ListedJob job, PayloadEncoding encoding) {
    JsonText payload = asJson(job.payload(), encoding);
    return new io.lineup.api.resource.ListedJob(
        job.id(),
        state(job.state()),
        job.priority(),
        job.attempts(),
        millis(job.createdAt()),
        millis(job.at()),
        job.position(),
        job.lastError(),
        payload,
        asBase64(job.payload(), payload));
  }

  /** A page of a list of jobs by state. */
  public static io.lineup.api.resource.JobListPage jobListPage(
      JobListPage page, PayloadEncoding encoding) {
    return new io.lineup.api.resource.JobListPage(
        page.jobs().stream().map(job -> listed(job, encoding)).toList(),
        page.nextCursor(),
        page.scanned());
  }

  /** What an action on jobs did. */
  public static io.lineup.api.resource.JobActionResult jobAction(JobActionResult result) {
    return new io.lineup.api.resource.JobActionResult(
        result.action().wireName(),
        result.matched(),
        result.done(),
        result.skipped().stream()
            .map(s -> new io.lineup.api.resource.JobActionResult.Skipped(s.id(), s.reason()))
            .toList());
  }

  /** A page of dead letters. */
  public static io.lineup.api.resource.DeadPage deadPage(DeadPage page, PayloadEncoding encoding) {
    return new io.lineup.api.resource.DeadPage(
        page.total(), page.jobs().stream().map(job -> dead(job, encoding)).toList());
  }

  /**
   * A queue's name (whole and in parts) and its counts per state: what every queue view starts
   * with.
   */
  static ObjectNode queueCounts(QueueStats stats) {
    ObjectNode node = Json.object();
    node.put("queue", stats.queue().toString());
    node.put("namespace", stats.queue().namespace());
    node.put("name", stats.queue().name());
    ObjectNode counts = node.putObject("counts");
    counts.put("ready", stats.ready());
    counts.put("delayed", stats.delayed());
    counts.put("leased", stats.leased());
    counts.put("dead", stats.dead());
    counts.put("finished", stats.finished());
    return node;
  }

  /** A queue's counts, rate, settings and counters. */
  public static io.lineup.api.resource.QueueStats queue(QueueStats stats) {
    Eta drain = stats.drainEta();
    return new io.lineup.api.resource.QueueStats(
        stats.queue().toString(),
        stats.queue().namespace(),
        stats.queue().name(),
        new io.lineup.api.resource.QueueStats.Counts(
            stats.ready(), stats.delayed(), stats.leased(), stats.dead(), stats.finished()),
        stats.serviceRate(),
        drain == null ? null : millis(drain.point()),
        drain == null ? null : millis(drain.low()),
        drain == null ? null : millis(drain.high()),
        settings(stats.settings()),
        stats.counters(),
        millis(stats.readAt()));
  }

  /** Effective queue settings, under their JSON names ({@link SettingsJson}). */
  public static io.lineup.api.resource.QueueSettings settings(QueueSettings settings) {
    try {
      return SETTINGS.readValue(SettingsJson.write(settings));
    } catch (java.io.IOException e) {
      throw new IllegalStateException("settings written as JSON did not read back", e);
    }
  }

  /**
   * Stored bytes as one JSON value, written as is (without a second parse), when they are one and
   * the caller did not ask for base64; else null (the field is absent).
   */
  static JsonText asJson(byte[] bytes, PayloadEncoding encoding) {
    return encoding == PayloadEncoding.JSON && Json.isJson(bytes)
        ? new JsonText(new String(bytes, StandardCharsets.UTF_8))
        : null;
  }

  /** Stored bytes in base64 when they are not written as JSON ({@code json} null); else null. */
  static String asBase64(byte[] bytes, JsonText json) {
    return json != null
        ? null
        : Base64.getEncoder().encodeToString(bytes == null ? new byte[0] : bytes);
  }

  private static io.lineup.api.resource.JobState state(JobState state) {
    return state == null ? null : io.lineup.api.resource.JobState.valueOf(state.name());
  }

  private static Long millis(Instant time) {
    return time == null ? null : time.toEpochMilli();
  }

  private static Long millis(Duration duration) {
    return duration == null ? null : duration.toMillis();
  }

  /**
   * Puts stored bytes as {@code name} when they are one JSON value (written as is, without a second
   * parse) and the caller did not ask for base64, else base64 under {@code name_base64}.
   */
  static void putBytes(ObjectNode node, String name, byte[] bytes, PayloadEncoding encoding) {
    JsonText json = asJson(bytes, encoding);
    if (json != null) {
      node.putRawValue(name, new RawValue(json.json()));
    } else {
      node.put(name + "_base64", asBase64(bytes, json));
    }
  }

  static void putTime(ObjectNode node, String name, Instant time) {
    if (time == null) {
      node.putNull(name);
    } else {
      node.put(name, time.toEpochMilli());
    }
  }
}
