package io.lineup.dispatch;

import io.lineup.api.ErrorCode;
import io.lineup.core.model.FairnessKey;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A task as submitted: the request to send and how it waits in line.
 *
 * @param request the request (its method null for the endpoint's default)
 * @param priority its priority
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

  /**
   * A task sent as soon as its turn comes, at priority 0, without headers, idempotency key or
   * callback.
   *
   * @param method the HTTP method (null for the endpoint's default)
   * @param path the path and query under the endpoint's base URL (may be empty)
   * @param contentType the body's content type (null without a body)
   * @param body the body's bytes (empty for none)
   */
  public static TaskSubmission of(String method, String path, String contentType, byte[] body) {
    return new TaskSubmission(
        new TaskRequest(
            method, path, Map.of(), contentType, body, null, TaskRequest.newDeliveryKey()),
        0,
        null,
        null,
        null);
  }

  /**
   * This task checked against its endpoint and its namespace's callback prefixes, its method
   * defaulted (POST when the endpoint allows it, else its first method). The server's API checks
   * each field with the methods below as it reads the request, in the order of its fields.
   *
   * @param maxBodyBytes the largest body, in bytes
   * @param callbacks the namespace's callback settings, read only when the task has a callback URL
   * @throws DispatchInputException {@code invalid_field} naming the field that is wrong, {@code
   *     payload_too_large} for a body over the limit
   */
  public TaskSubmission checked(
      EndpointSpec spec, int maxBodyBytes, Supplier<CallbackSettings> callbacks) {
    String method = method(spec, request.method());
    path(spec, request.path());
    if (request.headers().size() > TaskRequest.MAX_HEADERS) {
      throw DispatchInputException.invalidField(
          "headers",
          "must hold at most "
              + TaskRequest.MAX_HEADERS
              + " headers, got "
              + request.headers().size());
    }
    request.headers().forEach(TaskSubmission::header);
    bodySize(request.body().length, maxBodyBytes, "body");
    contentType(request.contentType());
    timing(delayMs, notBefore);
    idempotencyKey(idempotencyKey);
    key(request.key());
    if (request.callbackUrl() != null) {
      callbacks.get().check(request.callbackUrl());
    }
    TaskRequest sent =
        new TaskRequest(
            method,
            request.path(),
            request.headers(),
            request.contentType(),
            request.body(),
            request.callbackUrl(),
            request.deliveryKey(),
            request.startBy(),
            request.finishBy(),
            request.key());
    return new TaskSubmission(sent, priority, delayMs, notBefore, idempotencyKey);
  }

  /**
   * The method a task uses: the one given (any case), or the endpoint's default when null.
   *
   * @throws DispatchInputException naming {@code method} when the endpoint does not allow it
   */
  public static String method(EndpointSpec spec, String given) {
    String method = given == null ? defaultMethod(spec) : given.toUpperCase(Locale.ROOT);
    if (!spec.methods().contains(method)) {
      throw DispatchInputException.invalidField(
          "method",
          "this endpoint allows " + String.join(", ", spec.methods()) + ", got " + method);
    }
    return method;
  }

  /**
   * Checks a task's path and query against its endpoint's base URL.
   *
   * @throws DispatchInputException naming {@code path} when it could leave the base
   */
  public static void path(EndpointSpec spec, String path) {
    TargetPaths.resolve(spec.baseUrl(), path);
  }

  /**
   * Checks one header of a task.
   *
   * @param value its value, or null when it is not a string
   * @throws DispatchInputException naming {@code headers.<name>}
   */
  public static void header(String name, String value) {
    // The rules checked again right before sending (OutgoingRequestCheck).
    String problem = HeaderRules.taskHeaderProblem(name, value);
    if (problem != null) {
      throw DispatchInputException.invalidField("headers." + name, problem);
    }
  }

  /**
   * Checks the size of a task's body.
   *
   * @param field the field that held the body, for the error
   * @throws DispatchInputException {@code payload_too_large} when over {@code maxBodyBytes}
   */
  public static void bodySize(int length, int maxBodyBytes, String field) {
    if (length > maxBodyBytes) {
      throw new DispatchInputException(
          ErrorCode.PAYLOAD_TOO_LARGE,
          field,
          "a task body is at most " + maxBodyBytes + " bytes, got " + length);
    }
  }

  /**
   * Checks a content type (null for none).
   *
   * @throws DispatchInputException naming {@code content_type} when not printable ASCII
   */
  public static void contentType(String contentType) {
    if (contentType != null) {
      for (char c : contentType.toCharArray()) {
        if (c < 0x20 || c > 0x7e) {
          throw DispatchInputException.invalidField("content_type", "must be printable ASCII");
        }
      }
    }
  }

  /**
   * Checks that at most one of a delay and a due time is given.
   *
   * @throws DispatchInputException naming {@code delay_ms} when both are
   */
  public static void timing(Long delayMs, Long notBefore) {
    if (delayMs != null && notBefore != null) {
      throw DispatchInputException.invalidField(
          "delay_ms", "give delay_ms or not_before, not both");
    }
  }

  /**
   * Checks an idempotency key (null for none).
   *
   * @throws DispatchInputException naming {@code idempotency_key} when empty
   */
  public static void idempotencyKey(String key) {
    if (key != null && key.isEmpty()) {
      throw DispatchInputException.invalidField("idempotency_key", "must not be empty");
    }
  }

  /**
   * Checks a fairness key (null for none): 1 to {@value FairnessKey#MAX_LENGTH} characters of
   * letters, digits and {@code - _ . : @ / + =}.
   *
   * @throws DispatchInputException naming {@code key} when it breaks the rule
   */
  public static void key(String key) {
    if (key != null && !FairnessKey.isValid(key)) {
      throw DispatchInputException.invalidField(
          "key",
          "must be 1 to "
              + FairnessKey.MAX_LENGTH
              + " characters of letters, digits and - _ . : @ / + =");
    }
  }

  private static String defaultMethod(EndpointSpec spec) {
    if (spec.methods().contains("POST")) {
      return "POST";
    }
    return spec.methods().iterator().next();
  }
}
