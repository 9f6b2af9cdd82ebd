package io.lineup.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.core.model.DeadJob;
import io.lineup.core.model.Eta;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.PublishResult;
import io.lineup.core.model.QueueSettings;
import io.lineup.core.model.QueueStats;
import io.lineup.server.http.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;

/**
 * The JSON forms of the engine's answers. Times are epoch milliseconds in fields ending {@code
 * _at}, durations milliseconds in fields ending {@code _ms}; absent values are {@code null}.
 */
public final class Views {
  private Views() {}

  /**
   * Writes a publish result: {@code id, created, state, due_at, position}. Written straight to the
   * answer's generator, since a publish is the busiest route and a tree costs more to write.
   */
  public static void writePublished(JsonGenerator g, PublishResult result) throws IOException {
    g.writeStartObject();
    g.writeStringField("id", result.id());
    g.writeBooleanField("created", result.created());
    if (result.state() == null) {
      g.writeNullField("state");
    } else {
      g.writeStringField("state", result.state().name());
    }
    if (result.dueAt() == null) {
      g.writeNullField("due_at");
    } else {
      g.writeNumberField("due_at", result.dueAt().toEpochMilli());
    }
    g.writeNumberField("position", result.position());
    g.writeEndObject();
  }

  /** A leased job, as the lease route answers it. */
  public static ObjectNode leased(LeasedJob job, PayloadEncoding encoding) {
    ObjectNode node = Json.object();
    node.put("queue", job.queue().toString());
    node.put("id", job.id());
    putBytes(node, "payload", job.payload(), encoding);
    node.put("token", job.token());
    node.put("attempt", job.attempt());
    node.put("max_attempts", job.maxAttempts());
    node.put("priority", job.priority());
    putTime(node, "lease_deadline_at", job.leaseDeadline());
    putTime(node, "created_at", job.createdAt());
    putTime(node, "due_at", job.dueAt());
    return node;
  }

  /** A job as it stands. */
  public static ObjectNode job(JobInfo job, PayloadEncoding encoding) {
    ObjectNode node = Json.object();
    node.put("queue", job.queue().toString());
    node.put("id", job.id());
    node.put("state", job.state().name());
    node.put("priority", job.priority());
    node.put("attempts", job.attempts());
    node.put("max_attempts", job.maxAttempts());
    putDuration(node, "ttr_ms", job.timeToRun());
    putTime(node, "created_at", job.createdAt());
    putTime(node, "due_at", job.dueAt());
    putTime(node, "expires_at", job.expiresAt());
    putTime(node, "started_at", job.startedAt());
    putTime(node, "finished_at", job.finishedAt());
    putTime(node, "lease_deadline_at", job.leaseDeadline());
    node.put("last_error", job.lastError());
    node.put("position", job.position());
    putEta(node, "eta", job.eta());
    putBytes(node, "payload", job.payload(), encoding);
    if (job.result() == null) {
      node.putNull("result");
    } else {
      putBytes(node, "result", job.result(), encoding);
    }
    return node;
  }

  /** A dead letter. */
  public static ObjectNode dead(DeadJob job, PayloadEncoding encoding) {
    ObjectNode node = Json.object();
    node.put("id", job.id());
    node.put("priority", job.priority());
    node.put("attempts", job.attempts());
    node.put("last_error", job.lastError());
    putTime(node, "died_at", job.diedAt());
    putBytes(node, "payload", job.payload(), encoding);
    return node;
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
  public static ObjectNode queue(QueueStats stats) {
    ObjectNode node = queueCounts(stats);
    node.put("service_rate", stats.serviceRate());
    putEta(node, "drain_eta", stats.drainEta());
    node.set("settings", settings(stats.settings()));
    ObjectNode counters = node.putObject("counters");
    stats.counters().forEach(counters::put);
    putTime(node, "read_at", stats.readAt());
    return node;
  }

  /** Effective queue settings, under their JSON names ({@link SettingsJson}). */
  public static ObjectNode settings(QueueSettings settings) {
    return SettingsJson.write(settings);
  }

  /**
   * Puts stored bytes as {@code name} when they are one JSON value (written as is, without a second
   * parse) and the caller did not ask for base64, else base64 under {@code name_base64}.
   */
  static void putBytes(ObjectNode node, String name, byte[] bytes, PayloadEncoding encoding) {
    if (encoding == PayloadEncoding.JSON && Json.isJson(bytes)) {
      node.putRawValue(
          name,
          new com.fasterxml.jackson.databind.util.RawValue(
              new String(bytes, StandardCharsets.UTF_8)));
    } else {
      node.put(
          name + "_base64",
          Base64.getEncoder().encodeToString(bytes == null ? new byte[0] : bytes));
    }
  }

  static void putTime(ObjectNode node, String name, Instant time) {
    if (time == null) {
      node.putNull(name);
    } else {
      node.put(name, time.toEpochMilli());
    }
  }

  /** {@code <name>_ms}, {@code <name>_low_ms} and {@code <name>_high_ms}, all null when unknown. */
  private static void putEta(ObjectNode node, String name, Eta eta) {
    putDuration(node, name + "_ms", eta == null ? null : eta.point());
    putDuration(node, name + "_low_ms", eta == null ? null : eta.low());
    putDuration(node, name + "_high_ms", eta == null ? null : eta.high());
  }

  private static void putDuration(ObjectNode node, String name, Duration duration) {
    if (duration == null) {
      node.putNull(name);
    } else {
      node.put(name, duration.toMillis());
    }
  }
}
