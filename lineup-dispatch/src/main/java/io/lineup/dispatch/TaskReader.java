package io.lineup.dispatch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.core.model.Eta;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.JobState;
import io.lineup.core.model.PublishResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads a task from its job: status, position, ETA, attempts and, when it ended, the response. */
final class TaskReader {
  private TaskReader() {}

  /** Whether a job in this state has ended (nothing more will be sent). */
  static boolean finished(JobState state) {
    return switch (state) {
      case DONE, DEAD, CANCELLED, EXPIRED -> true;
      default -> false;
    };
  }

  /** An ended task's outcome record, as a dispatcher stores it and its callback carries it. */
  static ObjectNode outcomeRecord(Task task) {
    ObjectNode record = DispatchJson.object();
    record.put("outcome", task.status().json());
    record.put("error", task.error());
    record.set("attempts", Attempt.toJson(task.attempts()));
    if (task.response() == null) {
      record.putNull("response");
    } else {
      record.set("response", responseRecord(task.response()));
    }
    return record;
  }

  /** A response as a task's record keeps it. */
  private static ObjectNode responseRecord(TaskResponse response) {
    ObjectNode node = DispatchJson.object();
    if (response.status() == null) {
      node.putNull("status");
    } else {
      node.put("status", response.status());
    }
    if (response.headers() == null) {
      node.putNull("headers");
    } else {
      ObjectNode headers = node.putObject("headers");
      response.headers().forEach(headers::put);
    }
    TaskResponse.KeptBody body = response.body();
    if (body == null) {
      node.putNull("body");
    } else {
      switch (body.form()) {
        case JSON -> node.set("body", DispatchJson.parseStored(body.text(), "response body"));
        case TEXT -> node.put("body_text", body.text());
        case BASE64 -> node.put("body_base64", body.text());
      }
    }
    node.put("body_truncated", response.bodyTruncated());
    return node;
  }

  /**
   * A task just published (not a repeat of an idempotency key), from what the submit knows: the
   * same fields as {@link #task}, without reading the task back.
   *
   * @param eta the ETA of its position, or null
   */
  static Task submitted(
      EndpointKey key, TaskSubmission task, EndpointSpec spec, PublishResult result, Eta eta) {
    Instant due = result.dueAt();
    // Created when published: its due time less its delay, or now for a not-before time.
    Instant created =
        task.delayMs() != null
            ? due.minusMillis(task.delayMs())
            : task.notBefore() != null ? Instant.ofEpochMilli(System.currentTimeMillis()) : due;
    TaskRequest request = task.request();
    return new Task(
        result.id(),
        key,
        TaskStatus.QUEUED,
        task.priority(),
        result.position(),
        eta,
        created,
        due,
        null,
        null,
        List.of(),
        spec.maxAttempts(),
        null,
        null,
        new Task.Target(
            request.method(),
            request.path(),
            request.callbackUrl(),
            request.idempotencyKey(result.id())),
        true,
        request.key());
  }

  /** A just-published task whose record could not be read back. */
  static Task published(EndpointKey key, PublishResult result) {
    return new Task(
        result.id(),
        key,
        TaskStatus.QUEUED,
        0,
        result.position(),
        null,
        null,
        null,
        null,
        null,
        List.of(),
        0,
        null,
        null,
        null,
        false,
        null);
  }

  static Task task(EndpointKey key, JobInfo info) {
    JsonNode result = null;
    if (info.state() == JobState.DONE && info.result() != null) {
      try {
        result = DispatchJson.parse(info.result());
      } catch (IOException e) {
        result = null;
      }
    }
    TaskStatus status =
        switch (info.state()) {
          case DELAYED, READY -> TaskStatus.QUEUED;
          case LEASED -> TaskStatus.RUNNING;
          case DONE ->
              result == null
                  ? TaskStatus.SUCCEEDED
                  : TaskStatus.ofOutcome(result.path("outcome").asText("succeeded"));
          case DEAD -> TaskStatus.FAILED;
          case CANCELLED -> TaskStatus.CANCELLED;
          case EXPIRED -> TaskStatus.TIMED_OUT;
        };
    List<Attempt> attempts =
        result != null
            ? Attempt.fromJson(result.get("attempts"))
            : Attempt.parseHistory(info.lastError());
    TaskResponse response = null;
    if (result != null && result.hasNonNull("response")) {
      response = response(result.get("response"));
    } else if (info.state() == JobState.DEAD && !attempts.isEmpty()) {
      // Dead letters keep the attempts, not the last body: the last status is what is known.
      response = new TaskResponse(attempts.get(attempts.size() - 1).status(), null, null, false);
    }
    String error = result == null ? null : result.path("error").textValue();
    if (info.state() == JobState.DEAD) {
      error = "out of attempts";
    } else if (info.state() == JobState.EXPIRED) {
      error = "the task's record reached its time bound before it ended";
    }
    Task.Target target;
    // The engine tells a fair queue's job's key; the payload keeps it for any endpoint.
    String fairnessKey = info.key();
    try {
      TaskRequest request = TaskRequest.decode(info.payload());
      fairnessKey = fairnessKey != null ? fairnessKey : request.key();
      target =
          new Task.Target(
              request.method(),
              request.path(),
              request.callbackUrl(),
              request.idempotencyKey(info.id()));
    } catch (IllegalArgumentException notATask) {
      target = null;
    }
    return new Task(
        info.id(),
        key,
        status,
        info.priority(),
        info.position(),
        // The engine's ETA bounds it by the endpoint's rate and concurrency, uses its expected
        // service time until it has measured completions, and gives none while it is paused.
        info.state() == JobState.READY ? info.eta() : null,
        info.createdAt(),
        info.dueAt(),
        info.startedAt(),
        info.finishedAt(),
        List.copyOf(attempts),
        info.maxAttempts(),
        response,
        error,
        target,
        true,
        fairnessKey);
  }

  /** Reads a response as {@link EndpointDispatcher} stores it. */
  private static TaskResponse response(JsonNode node) {
    Map<String, String> headers = null;
    if (node.path("headers").isObject()) {
      Map<String, String> kept = new LinkedHashMap<>();
      node.get("headers")
          .fields()
          .forEachRemaining(h -> kept.put(h.getKey(), h.getValue().asText()));
      headers = kept;
    }
    TaskResponse.KeptBody body = null;
    if (node.hasNonNull("body")) {
      body =
          new TaskResponse.KeptBody(
              TaskResponse.Form.JSON,
              new String(DispatchJson.write(node.get("body")), StandardCharsets.UTF_8));
    } else if (node.hasNonNull("body_text")) {
      body = new TaskResponse.KeptBody(TaskResponse.Form.TEXT, node.get("body_text").asText());
    } else if (node.hasNonNull("body_base64")) {
      body = new TaskResponse.KeptBody(TaskResponse.Form.BASE64, node.get("body_base64").asText());
    }
    JsonNode status = node.path("status");
    return new TaskResponse(
        status.isIntegralNumber() ? status.asInt() : null,
        headers,
        body,
        node.path("body_truncated").asBoolean(false));
  }
}
