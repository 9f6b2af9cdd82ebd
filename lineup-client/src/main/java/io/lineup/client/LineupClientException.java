package io.lineup.client;

/**
 * A call the server refused or could not answer. Every error answer of the server becomes a
 * subclass named for its kind ({@link NotFoundException}, {@link LeaseLostException}, ...); the
 * server's error code, field and request id are kept.
 */
public class LineupClientException extends RuntimeException {
  private final int status;
  private final String code;
  private final String field;
  private final String requestId;

  /**
   * @param status the HTTP status, or 0 when no answer came
   * @param code the server's error code (e.g. {@code invalid_field}), or null
   * @param field the field at fault, or null
   * @param message what went wrong, as the server said it
   * @param requestId the answer's {@code X-Request-Id}, or null
   */
  public LineupClientException(
      int status, String code, String field, String message, String requestId) {
    this(status, code, field, message, requestId, null);
  }

  LineupClientException(
      int status, String code, String field, String message, String requestId, Throwable cause) {
    super(message, cause);
    this.status = status;
    this.code = code;
    this.field = field;
    this.requestId = requestId;
  }

  /** The HTTP status, or 0 when no answer came. */
  public int status() {
    return status;
  }

  /** The server's error code, e.g. {@code invalid_field}; null when no answer came. */
  public String code() {
    return code;
  }

  /** The field at fault ({@code jobs[3].priority}), or null. */
  public String field() {
    return field;
  }

  /** The answer's request id, to find the server's log lines; null when no answer came. */
  public String requestId() {
    return requestId;
  }
}
