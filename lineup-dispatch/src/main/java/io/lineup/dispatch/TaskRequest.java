package io.lineup.dispatch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * What a task asks Lineup to send: method, path and query, headers, body, where to report the end,
 * the key every delivery carries, and whom it is sent for (its fairness key). Stored as the task's
 * job payload: one line of JSON (everything but the body), a newline, then the body's bytes as they
 * are.
 *
 * @param method the HTTP method
 * @param path the path and query under the endpoint's base URL (may be empty)
 * @param headers the headers to send, by name as given
 * @param contentType the body's content type (null without a body)
 * @param body the body's bytes (empty for none)
 * @param callbackUrl where the final record is POSTed (null for none)
 * @param deliveryKey the {@code Idempotency-Key} of every request of the task: a random UUID drawn
 *     at submit ({@link #newDeliveryKey()}), so that no two tasks share one, whatever their
 *     endpoints, namespaces or Lineup installations; null for a task submitted by a version that
 *     drew none, whose requests carry its task id
 * @param startBy the latest moment its first request may be sent, epoch milliseconds (null = none):
 *     a task leased later ends {@code timed_out} without a request
 * @param finishBy the latest moment its request may end, epoch milliseconds (null = none): a task
 *     leased when its expected service time no longer fits before it ends {@code timed_out} without
 *     a request
 * @param key its fairness key: the customer, tenant or user it is sent for (null = none); an
 *     endpoint with fair dispatch on ({@link EndpointFairness}) serves its keys in turn. Kept in
 *     the payload too, so a task shows it whether or not its endpoint is fair.
 */
public record TaskRequest(
    String method,
    String path,
    Map<String, String> headers,
    String contentType,
    byte[] body,
    String callbackUrl,
    String deliveryKey,
    Long startBy,
    Long finishBy,
    String key) {

  /** A request without deadlines or fairness key. */
  public TaskRequest(
      String method,
      String path,
      Map<String, String> headers,
      String contentType,
      byte[] body,
      String callbackUrl,
      String deliveryKey) {
    this(method, path, headers, contentType, body, callbackUrl, deliveryKey, null, null, null);
  }

  /** This request with these deadlines (epoch milliseconds, null for none). */
  public TaskRequest withDeadlines(Long startBy, Long finishBy) {
    return new TaskRequest(
        method, path, headers, contentType, body, callbackUrl, deliveryKey, startBy, finishBy, key);
  }

  /** This request with this fairness key (null for none; checked by {@link TaskSubmission}). */
  public TaskRequest withKey(String key) {
    return new TaskRequest(
        method, path, headers, contentType, body, callbackUrl, deliveryKey, startBy, finishBy, key);
  }

  /** Whether it carries a deadline. */
  public boolean hasDeadline() {
    return startBy != null || finishBy != null;
  }

  /** Most headers a task may carry. */
  public static final int MAX_HEADERS = HeaderRules.MAX_HEADERS;

  /** Longest header name, in characters. */
  public static final int MAX_HEADER_NAME = HeaderRules.MAX_NAME;

  /** Longest header value, in characters. */
  public static final int MAX_HEADER_VALUE = HeaderRules.MAX_VALUE;

  /** Room kept in the job payload for everything but the body: 64 KiB. */
  public static final int HEAD_ROOM_BYTES = 64 * 1024;

  /**
   * A new delivery key: a random (version 4) UUID. Task ids cannot serve: generated ones ({@code
   * ~1}, {@code ~2}, ...) count per endpoint queue, so two endpoints calling one upstream, or two
   * installations, would send the same key for different tasks and the upstream would drop one.
   */
  public static String newDeliveryKey() {
    return UUID.randomUUID().toString();
  }

  /**
   * The end of a delivery key drawn for a recurring task ({@link #newRecurringDeliveryKey()}): such
   * a key is shared by every task the schedule submits, so each task's requests carry it followed
   * by the task's id.
   */
  public static final String RECURRING_KEY_END = ":";

  /**
   * A new delivery key for the tasks of a recurring schedule: a random (version 4) UUID and {@value
   * #RECURRING_KEY_END}. Every task of the schedule is stored with this one payload, so its
   * requests carry the key followed by the task's id ({@link #idempotencyKey(String)}), which the
   * schedule's tick makes unique: no two ticks, schedules or installations share one.
   */
  public static String newRecurringDeliveryKey() {
    return newDeliveryKey() + RECURRING_KEY_END;
  }

  /**
   * The {@code Idempotency-Key} of this task's requests: its delivery key; for a recurring task's
   * key ({@link #newRecurringDeliveryKey()}) the key followed by the task id; the task id for a
   * task stored without one.
   */
  public String idempotencyKey(String taskId) {
    if (deliveryKey == null) {
      return taskId;
    }
    return deliveryKey.endsWith(RECURRING_KEY_END) ? deliveryKey + taskId : deliveryKey;
  }

  /** The job payload: a JSON line, a newline, the body. */
  public byte[] encode() {
    ObjectNode head = DispatchJson.object();
    head.put("method", method);
    head.put("path", path);
    ObjectNode h = head.putObject("headers");
    headers.forEach(h::put);
    head.put("content_type", contentType);
    head.put("callback_url", callbackUrl);
    if (deliveryKey != null) {
      head.put("delivery_key", deliveryKey);
    }
    if (startBy != null) {
      head.put("start_by", startBy);
    }
    if (finishBy != null) {
      head.put("finish_by", finishBy);
    }
    if (key != null) {
      head.put("key", key);
    }
    byte[] line = DispatchJson.write(head);
    byte[] out = Arrays.copyOf(line, line.length + 1 + body.length);
    out[line.length] = '\n';
    System.arraycopy(body, 0, out, line.length + 1, body.length);
    return out;
  }

  /**
   * Reads a job payload written by {@link #encode()}.
   *
   * @throws IllegalArgumentException when the payload is not a task (e.g. a job published to the
   *     endpoint's queue through the jobs API)
   */
  public static TaskRequest decode(byte[] payload) {
    int newline = -1;
    for (int i = 0; i < payload.length; i++) {
      if (payload[i] == '\n') {
        newline = i;
        break;
      }
    }
    if (newline < 0) {
      throw new IllegalArgumentException("not a task: no head line");
    }
    try {
      JsonNode head = DispatchJson.parse(Arrays.copyOf(payload, newline));
      // textValue(): the text of a string, null for an absent or non-string field.
      Map<String, String> headers = new LinkedHashMap<>();
      head.path("headers")
          .fields()
          .forEachRemaining(e -> headers.put(e.getKey(), e.getValue().asText()));
      return new TaskRequest(
          head.path("method").asText(),
          head.path("path").asText(""),
          headers,
          head.path("content_type").textValue(),
          Arrays.copyOfRange(payload, newline + 1, payload.length),
          head.path("callback_url").textValue(),
          head.path("delivery_key").textValue(),
          head.path("start_by").isIntegralNumber() ? head.get("start_by").asLong() : null,
          head.path("finish_by").isIntegralNumber() ? head.get("finish_by").asLong() : null,
          head.path("key").textValue());
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("not a task: " + e.getMessage(), e);
    }
  }
}
