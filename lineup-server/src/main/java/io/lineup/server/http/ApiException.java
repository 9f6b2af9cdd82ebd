package io.lineup.server.http;

import io.lineup.api.ErrorCode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An answer other than success, thrown by handlers and mapped to the one JSON error shape by {@link
 * ErrorMapper}: {@code {"error": code, "message": text, "field": name}}.
 */
public final class ApiException extends RuntimeException {
  private final ErrorCode code;
  private final String field;
  private final Map<String, Object> extra = new LinkedHashMap<>();
  private final Map<String, String> headers = new LinkedHashMap<>();

  /**
   * @param code the error code (and so the status)
   * @param field the offending field, or null
   * @param message what is wrong, for a person
   */
  public ApiException(ErrorCode code, String field, String message) {
    super(message, null, false, false);
    this.code = code;
    this.field = field;
  }

  /** A 400 for a field with the wrong type, out of range or missing. */
  public static ApiException invalidField(String field, String message) {
    return new ApiException(ErrorCode.INVALID_FIELD, field, message);
  }

  /** A 404. */
  public static ApiException notFound(String message) {
    return new ApiException(ErrorCode.NOT_FOUND, null, message);
  }

  /** A 403. */
  public static ApiException forbidden(String message) {
    return new ApiException(ErrorCode.FORBIDDEN, null, message);
  }

  /** Adds a field to the JSON answer, e.g. {@code reason} or {@code retry_after_ms}. */
  public ApiException with(String name, Object value) {
    extra.put(name, value);
    return this;
  }

  /** Adds a response header, e.g. {@code Retry-After}. */
  public ApiException header(String name, String value) {
    headers.put(name, value);
    return this;
  }

  public ErrorCode code() {
    return code;
  }

  public int status() {
    return code.status();
  }

  /** The offending field, or null. */
  public String field() {
    return field;
  }

  /** Further fields of the JSON answer. */
  public Map<String, Object> extra() {
    return extra;
  }

  /** Response headers to set. */
  public Map<String, String> headers() {
    return headers;
  }
}
