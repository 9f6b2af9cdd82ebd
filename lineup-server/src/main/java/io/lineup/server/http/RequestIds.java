package io.lineup.server.http;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * Request ids: a caller's {@code X-Request-Id} is kept when it is well formed, else a new one is
 * made. The id is sent back on every response and put in the logging context ({@value #MDC_KEY}) so
 * every log line of the request carries it.
 */
public final class RequestIds {
  /** The request and response header. */
  public static final String HEADER = "X-Request-Id";

  /** The logging context key. */
  public static final String MDC_KEY = "request_id";

  /** Longest caller-given id kept, in characters. */
  public static final int MAX_LENGTH = 128;

  private static final Pattern ALLOWED = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

  private RequestIds() {}

  /** The caller's id when well formed ({@code A-Z a-z 0-9 . _ : -}, 1 to 128), else a new one. */
  public static String accept(String callerId) {
    if (callerId != null && ALLOWED.matcher(callerId).matches()) {
      return callerId;
    }
    return generate();
  }

  /** A new random id: 16 hexadecimal digits. */
  public static String generate() {
    return HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
  }
}
