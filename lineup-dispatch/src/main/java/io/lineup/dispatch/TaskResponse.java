package io.lineup.dispatch;

import java.util.Map;

/**
 * The target's answer as a task's record keeps it.
 *
 * @param status the status code, or null when unknown
 * @param headers the response headers by lower-case name (values joined by {@code ", "}); null when
 *     not kept (a task out of attempts keeps the status only)
 * @param body the body, or null when there was none or it was not kept
 * @param bodyTruncated whether the body was cut to the limit
 */
public record TaskResponse(
    Integer status, Map<String, String> headers, KeptBody body, boolean bodyTruncated) {

  /**
   * A body as kept: a JSON answer as its JSON text, a text answer as text, anything else as base64.
   *
   * @param form how the text holds the body
   * @param text the JSON text, the text or the base64
   */
  public record KeptBody(Form form, String text) {}

  /** How a kept body's text holds it. */
  public enum Form {
    /** The body is JSON and the text is that JSON. */
    JSON,
    /** The body is UTF-8 text. */
    TEXT,
    /** The text is the standard base64 of the body's bytes. */
    BASE64
  }
}
