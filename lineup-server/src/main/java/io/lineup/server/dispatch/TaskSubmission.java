package io.lineup.server.dispatch;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.api.ErrorCode;
import io.lineup.core.model.Limits;
import io.lineup.server.auth.Principal;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.Json;
import io.lineup.server.http.JsonFields;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A task as submitted: the request to send and how it waits in line.
 *
 * @param request the request
 * @param priority its priority (at most the token's maximum)
 * @param delayMs wait this long before it is due (null = none)
 * @param notBefore due at this time, epoch milliseconds (null = none)
 * @param idempotencyKey a repeat with this key returns the first task (null = none)
 */
public record TaskSubmission(
    TaskRequest request, int priority, Long delayMs, Long notBefore, String idempotencyKey) {

  /** Longest idempotency key, in characters. */
  public static final int MAX_IDEMPOTENCY_KEY = 256;

  /** Longest callback URL, in characters. */
  public static final int MAX_CALLBACK_URL = 2048;

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
          "callback_url");

  /**
   * Reads and checks a submitted task against its endpoint, the caller's grant and the namespace's
   * callback prefixes.
   *
   * @param maxBodyBytes the largest body, in bytes
   * @param callbacks the namespace's callback settings, read only when the task has a callback URL
   * @throws ApiException 400 naming the field that is wrong, 413 {@code payload_too_large} for a
   *     body over the limit, 403 {@code priority_not_allowed} for a priority above the grant
   */
  public static TaskSubmission parse(
      JsonNode node,
      EndpointSpec spec,
      Principal principal,
      int maxBodyBytes,
      Supplier<CallbackSettings> callbacks) {
    JsonFields f = JsonFields.of(node, "", FIELDS);
    String method = f.optionalText("method", 16);
    method = method == null ? defaultMethod(spec) : method.toUpperCase(Locale.ROOT);
    if (!spec.methods().contains(method)) {
      throw ApiException.invalidField(
          "method",
          "this endpoint allows " + String.join(", ", spec.methods()) + ", got " + method);
    }
    String path = f.optionalText("path", TargetPaths.MAX_PATH_LENGTH);
    path = path == null ? "" : path;
    TargetPaths.resolve(spec.baseUrl(), path);
    Map<String, String> headers = TaskRequest.checkHeaders(f.raw("headers"));
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
      body = TaskRequest.base64(f.optionalText("body_base64", Integer.MAX_VALUE), "body_base64");
      contentType = contentType == null ? "application/octet-stream" : contentType;
    }
    if (body.length > maxBodyBytes) {
      throw new ApiException(
          ErrorCode.PAYLOAD_TOO_LARGE,
          bodyField,
          "a task body is at most " + maxBodyBytes + " bytes, got " + body.length);
    }
    if (contentType != null) {
      for (char c : contentType.toCharArray()) {
        if (c < 0x20 || c > 0x7e) {
          throw ApiException.invalidField("content_type", "must be printable ASCII");
        }
      }
    }
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
    if (delay != null && notBefore != null) {
      throw ApiException.invalidField("delay_ms", "give delay_ms or not_before, not both");
    }
    String key = f.optionalText("idempotency_key", MAX_IDEMPOTENCY_KEY);
    if (key != null && key.isEmpty()) {
      throw ApiException.invalidField("idempotency_key", "must not be empty");
    }
    String callback = f.optionalText("callback_url", MAX_CALLBACK_URL);
    if (callback != null) {
      callbacks.get().check(callback);
    }
    TaskRequest request =
        new TaskRequest(
            method, path, headers, contentType, body, callback, TaskRequest.newDeliveryKey());
    return new TaskSubmission(request, p, delay, notBefore, key);
  }

  private static String defaultMethod(EndpointSpec spec) {
    if (spec.methods().contains("POST")) {
      return "POST";
    }
    return spec.methods().iterator().next();
  }
}
