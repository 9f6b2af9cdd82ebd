package io.lineup.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A task to submit to an endpoint: the request Lineup will send (method, path under the endpoint's
 * base URL, headers, body) and how it waits (priority, delay, idempotency key, callback). Each
 * setter returns this:
 *
 * <pre>{@code
 * NewTask.post("/render?size=1024").jsonBody("{\"prompt\":\"a red bicycle\"}")
 *     .priority(10).idempotencyKey("order-4711")
 * }</pre>
 *
 * The server checks every field (docs/dispatch.md, "Tasks") and answers 400 naming it.
 */
public final class NewTask {
  private final String path;
  private String method;
  private final Map<String, String> headers = new LinkedHashMap<>();
  private JsonNode jsonBody;
  private String textBody;
  private byte[] bytesBody;
  private String contentType;
  private Integer priority;
  private Duration delay;
  private Instant notBefore;
  private String idempotencyKey;
  private String callbackUrl;
  private String key;
  private Instant startBy;
  private Instant finishBy;

  private NewTask(String path) {
    this.path = Objects.requireNonNull(path, "path");
  }

  /**
   * A task for this path and query under the endpoint's base URL (starting with {@code /} or {@code
   * ?}), with the endpoint's default method ({@code POST} when allowed).
   */
  public static NewTask to(String path) {
    return new NewTask(path);
  }

  /** A {@code POST} of this path. */
  public static NewTask post(String path) {
    return new NewTask(path).method("POST");
  }

  /** A {@code GET} of this path. */
  public static NewTask get(String path) {
    return new NewTask(path).method("GET");
  }

  /** The HTTP method: one of the endpoint's methods. */
  public NewTask method(String method) {
    this.method = method;
    return this;
  }

  /** Adds a header to the request (at most 32; some, such as {@code Host}, are refused). */
  public NewTask header(String name, String value) {
    headers.put(name, value);
    return this;
  }

  /**
   * A JSON body, sent as {@code application/json}.
   *
   * @throws IllegalArgumentException when the text is not exactly one JSON value
   */
  public NewTask jsonBody(String json) {
    clearBody();
    this.jsonBody = Json.parse(json);
    return this;
  }

  /** A text body, sent as {@code text/plain; charset=utf-8}. */
  public NewTask textBody(String text) {
    clearBody();
    this.textBody = Objects.requireNonNull(text, "text");
    return this;
  }

  /** A body of bytes, sent as {@code application/octet-stream}. */
  public NewTask body(byte[] bytes) {
    clearBody();
    this.bytesBody = bytes.clone();
    return this;
  }

  /** Overrides the body's content type. */
  public NewTask contentType(String contentType) {
    this.contentType = contentType;
    return this;
  }

  /** Priority, -255 to 255 (higher is sent first); at most the token's maximum priority. */
  public NewTask priority(int priority) {
    this.priority = priority;
    return this;
  }

  /** Due this long after submitting. */
  public NewTask delay(Duration delay) {
    this.delay = delay;
    this.notBefore = null;
    return this;
  }

  /** Due at this time. */
  public NewTask notBefore(Instant notBefore) {
    this.notBefore = notBefore;
    this.delay = null;
    return this;
  }

  /**
   * A key (1 to 256 characters) that makes submitting idempotent: a repeat answers the first task
   * while its record exists ({@link TaskSubmission#created()} false).
   */
  public NewTask idempotencyKey(String key) {
    this.idempotencyKey = key;
    return this;
  }

  /**
   * The fairness key: the customer, tenant or user the task is sent for (1 to 128 characters of
   * letters, digits and {@code - _ . : @ / + =}). An endpoint with fairness enabled ({@link
   * EndpointSettings#fairness}) serves its keys in turn, each under its own limits.
   *
   * @param key the key, or null for none
   */
  public NewTask key(String key) {
    this.key = key;
    return this;
  }

  /** A URL called when the task ends; it must start with one of the namespace's prefixes. */
  public NewTask callbackUrl(String url) {
    this.callbackUrl = url;
    return this;
  }

  /**
   * The latest start of its request: refused at submit ({@link DeadlineUnreachableException}) when
   * the endpoint's ETA cannot meet it; a task leased after it ends {@code timed_out} unsent.
   *
   * @param startBy the latest start (millisecond precision), or null for none
   */
  public NewTask startBy(Instant startBy) {
    this.startBy = startBy;
    return this;
  }

  /**
   * The latest end of its request: refused at submit ({@link DeadlineUnreachableException}) when
   * the endpoint's ETA plus its expected service time cannot meet it; a task leased too late to
   * finish by then ends {@code timed_out} unsent.
   *
   * @param finishBy the latest end (millisecond precision), or null for none
   */
  public NewTask finishBy(Instant finishBy) {
    this.finishBy = finishBy;
    return this;
  }

  private void clearBody() {
    jsonBody = null;
    textBody = null;
    bytesBody = null;
  }

  JsonNode toJson() {
    ObjectNode node = Json.object();
    node.put("path", path);
    if (method != null) {
      node.put("method", method);
    }
    if (!headers.isEmpty()) {
      ObjectNode h = node.putObject("headers");
      headers.forEach(h::put);
    }
    if (jsonBody != null) {
      node.set("body", jsonBody);
    } else if (textBody != null) {
      node.put("body_text", textBody);
    } else if (bytesBody != null) {
      node.put("body_base64", Base64.getEncoder().encodeToString(bytesBody));
    }
    if (contentType != null) {
      node.put("content_type", contentType);
    }
    if (priority != null) {
      node.put("priority", priority);
    }
    if (delay != null) {
      node.put("delay_ms", delay.toMillis());
    }
    if (notBefore != null) {
      node.put("not_before", notBefore.toEpochMilli());
    }
    if (idempotencyKey != null) {
      node.put("idempotency_key", idempotencyKey);
    }
    if (callbackUrl != null) {
      node.put("callback_url", callbackUrl);
    }
    if (key != null) {
      node.put("key", key);
    }
    if (startBy != null) {
      node.put("start_by", startBy.toEpochMilli());
    }
    if (finishBy != null) {
      node.put("finish_by", finishBy.toEpochMilli());
    }
    return node;
  }

  @Override
  public String toString() {
    return "NewTask " + (method == null ? "" : method + " ") + path + " " + bodyDescription();
  }

  private String bodyDescription() {
    if (jsonBody != null) {
      return "(JSON body)";
    }
    if (textBody != null) {
      return "(" + textBody.getBytes(StandardCharsets.UTF_8).length + " bytes of text)";
    }
    return bytesBody == null ? "(no body)" : "(" + bytesBody.length + " bytes)";
  }
}
