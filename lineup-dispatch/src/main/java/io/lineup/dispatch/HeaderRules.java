package io.lineup.dispatch;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The one rule set for the headers Lineup sends upstream: applied when a task is submitted ({@link
 * TaskRequest#checkHeaders}) and again right before each request leaves ({@link
 * OutgoingRequestCheck}), so that a record written some other way is held to the same rules.
 */
final class HeaderRules {
  /** Most headers a task may carry. */
  static final int MAX_HEADERS = 32;

  /** Longest header name, in characters. */
  static final int MAX_NAME = 64;

  /** Longest header value, in characters. */
  static final int MAX_VALUE = 1024;

  /** RFC 9110 token: the characters of a header name or a method. */
  private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

  /**
   * Headers that frame the message or belong to one hop (RFC 9110 section 7.6.1): the HTTP client
   * sets them, and one chosen by a caller could split or redirect the request.
   */
  private static final Set<String> FRAMING =
      Set.of(
          "host",
          "content-length",
          "transfer-encoding",
          "connection",
          "upgrade",
          "te",
          "trailer",
          "expect",
          "keep-alive",
          "http2-settings");

  /** Headers Lineup sets on every task request. */
  private static final Set<String> SET_BY_LINEUP = Set.of("idempotency-key", "lineup-task-id");

  private HeaderRules() {}

  /** Whether a text is an RFC 9110 token (a header name or a method). */
  static boolean isToken(String text) {
    return text != null && TOKEN.matcher(text).matches();
  }

  /**
   * Why a header a task asks for may not be sent, or null when it may.
   *
   * @param name the header name as given
   * @param value the value as given (null when not a string)
   */
  static String taskHeaderProblem(String name, String value) {
    String problem = nameProblem(name);
    if (problem != null) {
      return problem;
    }
    if (SET_BY_LINEUP.contains(name.toLowerCase(Locale.ROOT))) {
      return "is set by Lineup, not a task";
    }
    if (value == null || value.length() > MAX_VALUE) {
      return "must be a string of at most " + MAX_VALUE + " characters";
    }
    return valueProblem(value);
  }

  /** Why a header name may not be sent (not a token, too long, framing or hop-by-hop), or null. */
  static String nameProblem(String name) {
    if (name == null || name.length() > MAX_NAME || !isToken(name)) {
      return "a header name is 1 to " + MAX_NAME + " token characters";
    }
    String lower = name.toLowerCase(Locale.ROOT);
    if (FRAMING.contains(lower) || lower.startsWith("proxy-")) {
      return "is a framing or hop-by-hop header, set by the HTTP client, not a task";
    }
    return null;
  }

  /**
   * Why a header value may not be sent (a control character such as CR, LF or NUL, or a character
   * beyond Latin-1), or null.
   */
  static String valueProblem(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if ((c < 0x20 && c != '\t') || c == 0x7f || c > 0xff) {
        return "must not hold control (CR, LF, NUL, ...) or non-Latin-1 characters";
      }
    }
    return null;
  }
}
