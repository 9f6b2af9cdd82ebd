package io.lineup.server.dispatch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.core.model.Eta;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.JobState;
import io.lineup.core.model.PublishResult;
import io.lineup.server.http.Json;
import java.time.Instant;
import java.util.List;

/** The JSON form of a task: status, position, ETA, attempts and, when it ended, the response. */
final class TaskViews {
  private TaskViews() {}

  /** Whether the task has ended (nothing more will be sent). */
  static boolean finished(JobInfo info) {
    return switch (info.state()) {
      case DONE, DEAD, CANCELLED, EXPIRED -> true;
      default -> false;
    };
  }

  /**
   * A task just published (not a repeat of an idempotency key), from what the submit knows: the
   * same fields as {@link #task}, without reading the task back.
   *
   * @param eta the ETA of its position, or null
   */
  static ObjectNode submitted(
      EndpointKey key, TaskSubmission task, EndpointSpec spec, PublishResult result, Eta eta) {
    ObjectNode node = Json.object();
    node.put("id", result.id());
    node.put("endpoint", key.name());
    node.put("status", "queued");
    node.put("priority", task.priority());
    node.put("position", result.position());
    putEta(node, eta);
    long due = result.dueAt().toEpochMilli();
    // Created when published: its due time less its delay, or now for a not-before time.
    long created =
        task.delayMs() != null
            ? due - task.delayMs()
            : task.notBefore() != null ? System.currentTimeMillis() : due;
    node.put("created_at", created);
    node.put("due_at", due);
    node.putNull("started_at");
    node.putNull("finished_at");
    node.putArray("attempts");
    node.put("max_attempts", spec.maxAttempts());
    node.putNull("response");
    node.putNull("error");
    node.put("method", task.request().method());
    node.put("path", task.request().path());
    node.put("callback_url", task.request().callbackUrl());
    node.put("delivery_key", task.request().idempotencyKey(result.id()));
    return node;
  }

  /** A just-published task whose record could not be read back. */
  static ObjectNode published(EndpointKey key, PublishResult result) {
    ObjectNode node = Json.object();
    node.put("id", result.id());
    node.put("endpoint", key.name());
    node.put("status", "queued");
    node.put("position", result.position());
    node.putNull("eta_ms");
    node.putNull("eta_low_ms");
    node.putNull("eta_high_ms");
    return node;
  }

  static ObjectNode task(EndpointKey key, JobInfo info) {
    ObjectNode node = Json.object();
    node.put("id", info.id());
    node.put("endpoint", key.name());
    JsonNode result = null;
    if (info.state() == JobState.DONE && info.result() != null) {
      try {
        result = Json.parse(info.result());
      } catch (java.io.IOException e) {
        result = null;
      }
    }
    String status =
        switch (info.state()) {
          case DELAYED, READY -> "queued";
          case LEASED -> "running";
          case DONE -> result == null ? "succeeded" : result.path("outcome").asText("succeeded");
          case DEAD -> "failed";
          case CANCELLED -> "cancelled";
          case EXPIRED -> "timed_out";
        };
    node.put("status", status);
    node.put("priority", info.priority());
    node.put("position", info.position());
    putEta(node, info);
    putTime(node, "created_at", info.createdAt());
    putTime(node, "due_at", info.dueAt());
    putTime(node, "started_at", info.startedAt());
    putTime(node, "finished_at", info.finishedAt());
    List<Attempt> attempts =
        result != null
            ? Attempt.fromJson(result.get("attempts"))
            : Attempt.parseHistory(info.lastError());
    node.set("attempts", Attempt.toJson(attempts));
    node.put("max_attempts", info.maxAttempts());
    if (result != null && result.hasNonNull("response")) {
      node.set("response", result.get("response"));
    } else if (info.state() == JobState.DEAD && !attempts.isEmpty()) {
      // Dead letters keep the attempts, not the last body: the last status is what is known.
      ObjectNode last = node.putObject("response");
      Attempt a = attempts.get(attempts.size() - 1);
      if (a.status() == null) {
        last.putNull("status");
      } else {
        last.put("status", a.status());
      }
      last.putNull("headers");
      last.putNull("body");
      last.put("body_truncated", false);
    } else {
      node.putNull("response");
    }
    String error = result == null ? null : result.path("error").textValue();
    if (info.state() == JobState.DEAD) {
      error = "out of attempts";
    } else if (info.state() == JobState.EXPIRED) {
      error = "the task's record reached its time bound before it ended";
    }
    node.put("error", error);
    try {
      TaskRequest request = TaskRequest.decode(info.payload());
      node.put("method", request.method());
      node.put("path", request.path());
      node.put("callback_url", request.callbackUrl());
      node.put("delivery_key", request.idempotencyKey(info.id()));
    } catch (IllegalArgumentException notATask) {
      node.putNull("method");
    }
    return node;
  }

  /**
   * The engine's ETA of a waiting task and its band, in milliseconds: the engine bounds it by the
   * endpoint's rate and concurrency, uses the endpoint's expected service time until it has
   * measured completions, and gives none while the endpoint is paused. Null when not in line.
   */
  private static void putEta(ObjectNode node, JobInfo info) {
    putEta(node, info.state() == JobState.READY ? info.eta() : null);
  }

  private static void putEta(ObjectNode node, Eta eta) {
    if (eta == null) {
      node.putNull("eta_ms");
      node.putNull("eta_low_ms");
      node.putNull("eta_high_ms");
    } else {
      node.put("eta_ms", eta.point().toMillis());
      node.put("eta_low_ms", eta.low().toMillis());
      node.put("eta_high_ms", eta.high().toMillis());
    }
  }

  private static void putTime(ObjectNode node, String name, Instant time) {
    if (time == null) {
      node.putNull(name);
    } else {
      node.put(name, time.toEpochMilli());
    }
  }
}
