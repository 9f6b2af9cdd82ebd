package io.lineup.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import io.lineup.api.DeadlineFields;
import io.lineup.api.ErrorCode;
import io.lineup.api.ScheduleFields;
import io.lineup.api.resource.JsonText;
import io.lineup.api.resource.TaskAttempt;
import io.lineup.core.model.Eta;
import io.lineup.core.model.FairnessKey;
import io.lineup.core.model.Limits;
import io.lineup.dispatch.Attempt;
import io.lineup.dispatch.DeadTasks;
import io.lineup.dispatch.DispatchInputException;
import io.lineup.dispatch.EndpointSpec;
import io.lineup.dispatch.TargetPaths;
import io.lineup.dispatch.Task;
import io.lineup.dispatch.TaskRequest;
import io.lineup.dispatch.TaskResponse;
import io.lineup.dispatch.TaskSubmission;
import io.lineup.server.auth.Principal;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.Json;
import io.lineup.server.http.JsonFields;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The JSON of a task: read from a submit's body, and written as the API shows it (status, position,
 * ETA, attempts and, when it ended, the response).
 */
final class TaskJson {
  private static final Set<String> FIELDS =
      Set.of(
          "method",
          "path",
          "headers",
          "body",
          "body_text",
          "body_base64",
          "content_type",
          "priority",
          "delay_ms",
          "not_before",
          "idempotency_key",
          "callback_url",
          "key",
          DeadlineFields.START_BY,
          DeadlineFields.START_WITHIN_MS,
          DeadlineFields.FINISH_BY,
          DeadlineFields.FINISH_WITHIN_MS);

  private TaskJson() {}

  /**
   * Reads and checks a submitted task against its endpoint and the caller's grant, field by field
   * in the order of the fields. Its callback URL is checked against the namespace's prefixes by the
   * submit, the last check of all.
   *
   * @param maxBodyBytes the largest body, in bytes
   * @throws ApiException 400 naming the field that is wrong, 403 {@code priority_not_allowed} for a
   *     priority above the grant
   * @throws io.lineup.dispatch.DispatchInputException 400 naming the field that is wrong, 413
   *     {@code payload_too_large} for a body over the limit
   */
  static TaskSubmission parse(
      JsonNode node, EndpointSpec spec, Principal principal, int maxBodyBytes) {
    return parse(JsonFields.of(node, "", FIELDS), spec, principal, maxBodyBytes);
  }

  /**
   * Reads and checks the task of an endpoint's recurring schedule ({@code task} of its body): a
   * submit's request fields and priority, without its timing or idempotency key (the schedule's
   * ticks say when). Every error names its field under {@code task.}.
   *
   * @param node the {@code task} value
   * @param maxBodyBytes the largest body, in bytes
   * @throws ApiException 400 naming the field that is wrong ({@code task.path}), 403 {@code
   *     priority_not_allowed} for a priority above the grant, 413 {@code payload_too_large}
   */
  static TaskSubmission template(
      JsonNode node, EndpointSpec spec, Principal principal, int maxBodyBytes) {
    String prefix = ScheduleFields.TASK;
    if (node == null || !node.isObject()) {
      throw ApiException.invalidField(prefix, "is required: a JSON object (the task to submit)");
    }
    try {
      return parse(
          JsonFields.of(node, "", ScheduleFields.TASK_FIELDS), spec, principal, maxBodyBytes);
    } catch (ApiException e) {
      throw new ApiException(e.code(), under(prefix, e.field()), e.getMessage());
    } catch (DispatchInputException e) {
      throw new ApiException(e.code(), under(prefix, e.field()), e.getMessage());
    }
  }

  private static String under(String prefix, String field) {
    return field == null ? prefix : prefix + "." + field;
  }

  private static TaskSubmission parse(
      JsonFields f, EndpointSpec spec, Principal principal, int maxBodyBytes) {
    String method = TaskSubmission.method(spec, f.optionalText("method", 16));
    String path = f.optionalText("path", TargetPaths.MAX_PATH_LENGTH);
    path = path == null ? "" : path;
    TaskSubmission.path(spec, path);
    Map<String, String> headers = headers(f.raw("headers"));
    int given =
        (f.has("body") ? 1 : 0) + (f.has("body_text") ? 1 : 0) + (f.has("body_base64") ? 1 : 0);
    if (given > 1) {
      throw ApiException.invalidField("body", "give one of body, body_text and body_base64");
    }
    byte[] body = new byte[0];
    String contentType = f.optionalText("content_type", 256);
    String bodyField = "body";
    if (f.has("body")) {
      body = Json.write(f.raw("body"));
      contentType = contentType == null ? "application/json" : contentType;
    } else if (f.has("body_text")) {
      bodyField = "body_text";
      body = f.optionalText("body_text", Integer.MAX_VALUE).getBytes(StandardCharsets.UTF_8);
      contentType = contentType == null ? "text/plain; charset=utf-8" : contentType;
    } else if (f.has("body_base64")) {
      bodyField = "body_base64";
      body = base64(f.optionalText("body_base64", Integer.MAX_VALUE), "body_base64");
      contentType = contentType == null ? "application/octet-stream" : contentType;
    }
    TaskSubmission.bodySize(body.length, maxBodyBytes, bodyField);
    TaskSubmission.contentType(contentType);
    Integer priority = f.optionalInt("priority", Limits.MIN_PRIORITY, Limits.MAX_PRIORITY);
    int p = priority == null ? 0 : priority;
    if (p > principal.maxPriority()) {
      throw new ApiException(
          ErrorCode.PRIORITY_NOT_ALLOWED,
          "priority",
          "this token may submit with priority up to " + principal.maxPriority() + ", got " + p);
    }
    Long delay = f.optionalLong("delay_ms", 0, Limits.MAX_DELAY_MS);
    Long notBefore = f.optionalLong("not_before", 0, Long.MAX_VALUE / 2);
    TaskSubmission.timing(delay, notBefore);
    String key = f.optionalText("idempotency_key", TaskSubmission.MAX_IDEMPOTENCY_KEY);
    TaskSubmission.idempotencyKey(key);
    String callback = f.optionalText("callback_url", TaskSubmission.MAX_CALLBACK_URL);
    String fairnessKey = f.optionalText("key", FairnessKey.MAX_LENGTH);
    TaskSubmission.key(fairnessKey);
    long now = System.currentTimeMillis();
    Long startBy = deadline(f, DeadlineFields.START_BY, DeadlineFields.START_WITHIN_MS, now);
    Long finishBy = deadline(f, DeadlineFields.FINISH_BY, DeadlineFields.FINISH_WITHIN_MS, now);
    if (startBy != null && finishBy != null && finishBy < startBy) {
      throw ApiException.invalidField(DeadlineFields.FINISH_BY, "must not be before start_by");
    }
    TaskRequest request =
        new TaskRequest(
                method, path, headers, contentType, body, callback, TaskRequest.newDeliveryKey())
            .withDeadlines(startBy, finishBy)
            .withKey(fairnessKey);
    return new TaskSubmission(request, p, delay, notBefore, key);
  }

  /**
   * A deadline given absolute (epoch ms) or relative to the receipt of the submit (ms), as epoch
   * ms; null when neither is given.
   *
   * @throws ApiException 400 naming the relative field when both are given
   */
  private static Long deadline(JsonFields f, String absolute, String relative, long now) {
    Long at = f.optionalLong(absolute, 0, Long.MAX_VALUE / 2);
    Long within = f.optionalLong(relative, 0, Limits.MAX_DELAY_MS);
    if (at != null && within != null) {
      throw ApiException.invalidField(
          relative, "give " + absolute + " or " + relative + ", not both");
    }
    return within != null ? Long.valueOf(now + within) : at;
  }

  /**
   * Reads the headers of a submitted task.
   *
   * @throws ApiException 400 naming {@code headers} or {@code headers.<name>}
   */
  private static Map<String, String> headers(JsonNode node) {
    Map<String, String> headers = new LinkedHashMap<>();
    if (node == null || node.isNull()) {
      return headers;
    }
    if (!node.isObject()) {
      throw ApiException.invalidField("headers", "must be an object of header names to strings");
    }
    if (node.size() > TaskRequest.MAX_HEADERS) {
      throw ApiException.invalidField(
          "headers",
          "must hold at most " + TaskRequest.MAX_HEADERS + " headers, got " + node.size());
    }
    Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> e = fields.next();
      JsonNode value = e.getValue();
      TaskSubmission.header(e.getKey(), value.isTextual() ? value.textValue() : null);
      headers.put(e.getKey(), value.textValue());
    }
    return headers;
  }

  private static byte[] base64(String text, String field) {
    try {
      return Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      throw ApiException.invalidField(field, "must be standard base64");
    }
  }

  /**
   * A task's answer as JSON text: its record written with the view of what is known of it ({@link
   * io.lineup.api.resource.Task#fieldsOf}).
   */
  static byte[] write(Task task) {
    return Json.write(
        of(task), io.lineup.api.resource.Task.fieldsOf(task.detailed(), task.request() != null));
  }

  /** A task as the API's record; what is not known of it is null. */
  static io.lineup.api.resource.Task of(Task task) {
    Eta eta = task.eta();
    Task.Target target = task.request();
    return new io.lineup.api.resource.Task(
        task.id(),
        task.endpoint().name(),
        io.lineup.api.resource.TaskStatus.valueOf(task.status().name()),
        task.priority(),
        task.position(),
        eta == null ? null : eta.point().toMillis(),
        eta == null ? null : eta.low().toMillis(),
        eta == null ? null : eta.high().toMillis(),
        millis(task.createdAt()),
        millis(task.dueAt()),
        millis(task.startedAt()),
        millis(task.finishedAt()),
        task.attempts().stream().map(TaskJson::attempt).toList(),
        task.maxAttempts(),
        task.response() == null ? null : response(task.response()),
        task.error(),
        target == null ? null : target.method(),
        target == null ? null : target.path(),
        target == null ? null : target.callbackUrl(),
        target == null ? null : target.deliveryKey(),
        task.key());
  }

  /** A page of dead tasks: {@code endpoint, total, tasks}. */
  static ObjectNode deadTasks(DeadTasks page) {
    ObjectNode answer = Json.object();
    answer.put("endpoint", page.endpoint().name());
    answer.put("total", page.total());
    ArrayNode tasks = answer.putArray("tasks");
    page.tasks()
        .forEach(
            t -> tasks.addRawValue(new RawValue(new String(write(t), StandardCharsets.UTF_8))));
    return answer;
  }

  private static TaskAttempt attempt(Attempt attempt) {
    return new TaskAttempt(
        attempt.number(),
        attempt.startedAt(),
        attempt.durationMs(),
        attempt.status(),
        attempt.error());
  }

  /**
   * The kept response: a JSON body under {@code body} (as the server's JSON writes it), text under
   * {@code body_text}, bytes under {@code body_base64}, and {@code body: null} when none was kept.
   */
  private static io.lineup.api.resource.TaskResponse response(TaskResponse response) {
    TaskResponse.KeptBody body = response.body();
    TaskResponse.Form form = body == null ? null : body.form();
    return new io.lineup.api.resource.TaskResponse(
        response.status(),
        response.headers(),
        body == null ? JsonText.NULL : form == TaskResponse.Form.JSON ? json(body.text()) : null,
        form == TaskResponse.Form.TEXT ? body.text() : null,
        form == TaskResponse.Form.BASE64 ? body.text() : null,
        response.bodyTruncated());
  }

  private static JsonText json(String text) {
    try {
      return new JsonText(
          new String(
              Json.write(Json.parse(text.getBytes(StandardCharsets.UTF_8))),
              StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("A kept response body is not JSON", e);
    }
  }

  private static Long millis(Instant time) {
    return time == null ? null : time.toEpochMilli();
  }
}
