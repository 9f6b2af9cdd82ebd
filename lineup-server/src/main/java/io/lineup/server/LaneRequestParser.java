package io.lineup.server;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Reads the head of an HTTP/1.1 request for the {@link LaneConnection}, which serves only the
 * plainest form of the lane's routes and leaves everything else, bytes untouched, to Jetty.
 *
 * <p>A head is taken only when all of this holds: the request line is {@code POST <path> HTTP/1.1}
 * with a path of a {@link LaneRoute} (visible ASCII, no query, no fragment, no dot segment); every
 * line ends with CRLF and holds no control character but tab; no header is folded and every header
 * name is a token directly followed by its colon; {@code Host} comes once; {@code Content-Length}
 * comes once, as digits, at most {@code maxBodyBytes}; there is no {@code Transfer-Encoding},
 * {@code Expect} or {@code Upgrade}; {@code Connection} says nothing but {@code keep-alive} or
 * {@code close}; {@code Authorization} and {@code X-Request-Id} come at most once; the head ends
 * within {@code maxHeadBytes}. Anything else is {@link Kind#HAND_OVER}: Jetty reads the same bytes
 * and answers as it always does (a 400, a 413, a 431, or the route). So the lane never decides
 * where a request ends differently from Jetty, which would let one request hide in another's body.
 */
final class LaneRequestParser {
  /** What the bytes so far say. */
  enum Kind {
    /** A whole head of a lane request; its body may still be on its way. */
    HEAD,
    /** Not enough bytes yet to tell. */
    MORE,
    /** Not a request the lane serves: Jetty takes the connection from here. */
    HAND_OVER
  }

  /** The outcome: a kind, and the head when the kind is {@link Kind#HEAD}. */
  record Result(Kind kind, LaneHead head) {
    static final Result MORE = new Result(Kind.MORE, null);
    static final Result HAND_OVER = new Result(Kind.HAND_OVER, null);
  }

  private static final byte[] METHOD = "POST /".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] VERSION = " HTTP/1.1".getBytes(StandardCharsets.US_ASCII);

  private final List<LaneRoute> routes;
  private final int maxHeadBytes;
  private final int maxBodyBytes;

  /**
   * @param routes the lane's routes
   * @param maxHeadBytes the longest head taken, in bytes, CRLFs included; a longer one is handed
   *     over (Jetty answers 431 when it is over Jetty's own limit)
   * @param maxBodyBytes the largest body taken, in bytes; a larger one is handed over
   */
  LaneRequestParser(List<LaneRoute> routes, int maxHeadBytes, int maxBodyBytes) {
    this.routes = List.copyOf(routes);
    this.maxHeadBytes = maxHeadBytes;
    this.maxBodyBytes = maxBodyBytes;
  }

  /** The longest head taken, in bytes. */
  int maxHeadBytes() {
    return maxHeadBytes;
  }

  /**
   * Reads the head that starts at {@code from}.
   *
   * @param bytes the connection's bytes
   * @param from where the request starts
   * @param to where the bytes read so far end (exclusive)
   */
  Result parse(byte[] bytes, int from, int to) {
    int limit = Math.min(to, from + maxHeadBytes);
    int lineEnd = lineEnd(bytes, from, limit);
    if (lineEnd < 0) {
      return lineEnd == BAD ? Result.HAND_OVER : moreOrTooLong(from, to);
    }
    String path = path(bytes, from, lineEnd);
    if (path == null) {
      return Result.HAND_OVER;
    }
    LaneRoute route = null;
    int slash = -1;
    for (LaneRoute candidate : routes) {
      slash = candidate.slashBetweenNames(path);
      if (slash >= 0) {
        route = candidate;
        break;
      }
    }
    if (route == null) {
      return Result.HAND_OVER;
    }
    Headers headers = new Headers();
    int line = lineEnd + 2;
    while (true) {
      int end = lineEnd(bytes, line, limit);
      if (end < 0) {
        return end == BAD ? Result.HAND_OVER : moreOrTooLong(from, to);
      }
      if (end == line) {
        break; // the empty line: the head ends here
      }
      if (!headers.read(bytes, line, end)) {
        return Result.HAND_OVER;
      }
      line = end + 2;
    }
    if (headers.hosts != 1 || headers.contentLength < 0 || headers.contentLength > maxBodyBytes) {
      return Result.HAND_OVER;
    }
    return new Result(
        Kind.HEAD,
        new LaneHead(
            route,
            path,
            slash,
            headers.authorization,
            headers.requestId,
            headers.close,
            line + 2,
            (int) headers.contentLength));
  }

  private Result moreOrTooLong(int from, int to) {
    return to - from >= maxHeadBytes ? Result.HAND_OVER : Result.MORE;
  }

  private static final int NEED_MORE = -1;
  private static final int BAD = -2;

  /**
   * Where the CR of the line starting at {@code from} is, {@link #NEED_MORE} when its end is not
   * within {@code limit}, or {@link #BAD} for a bare CR or LF or a control character but tab.
   */
  private static int lineEnd(byte[] bytes, int from, int limit) {
    for (int i = from; i < limit; i++) {
      byte c = bytes[i];
      if (c == '\r') {
        if (i + 1 >= limit) {
          return NEED_MORE;
        }
        return bytes[i + 1] == '\n' ? i : BAD;
      }
      if (c == '\n' || c == 0x7f || (c >= 0 && c < 0x20 && c != '\t')) {
        return BAD;
      }
    }
    return NEED_MORE;
  }

  /** The request line's path when it is {@code POST <plain path> HTTP/1.1}, else null. */
  private static String path(byte[] bytes, int from, int end) {
    int pathStart = from + METHOD.length - 1;
    int pathEnd = end - VERSION.length;
    if (pathEnd <= pathStart
        || !startsWith(bytes, from, METHOD)
        || !startsWith(bytes, pathEnd, VERSION)) {
      return null;
    }
    for (int i = pathStart; i < pathEnd; i++) {
      byte c = bytes[i];
      // Visible ASCII only; a query or fragment goes the routes' way (the lane takes none).
      if (c <= 0x20 || c >= 0x7f || c == '?' || c == '#') {
        return null;
      }
      // A dot segment ("/." or "/..") is something Jetty would resolve: left to it.
      if (c == '.' && bytes[i - 1] == '/') {
        return null;
      }
    }
    return new String(bytes, pathStart, pathEnd - pathStart, StandardCharsets.US_ASCII);
  }

  private static boolean startsWith(byte[] bytes, int at, byte[] prefix) {
    for (int i = 0; i < prefix.length; i++) {
      if (bytes[at + i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  /** The header fields the lane reads, and whether the others allow it to serve the request. */
  private static final class Headers {
    long contentLength = -1;
    int hosts;
    String authorization;
    String requestId;
    boolean close;

    /** Reads one header line; false when the request must be handed over. */
    boolean read(byte[] bytes, int from, int end) {
      int colon = from;
      while (colon < end && isTokenChar(bytes[colon])) {
        colon++;
      }
      // A folded line starts with a space or tab; a space before the colon is not allowed either.
      if (colon == from || colon == end || bytes[colon] != ':') {
        return false;
      }
      int valueStart = colon + 1;
      int valueEnd = end;
      while (valueStart < valueEnd && isSpace(bytes[valueStart])) {
        valueStart++;
      }
      while (valueEnd > valueStart && isSpace(bytes[valueEnd - 1])) {
        valueEnd--;
      }
      int nameLength = colon - from;
      if (is(bytes, from, nameLength, "content-length")) {
        if (contentLength >= 0) {
          return false;
        }
        contentLength = digits(bytes, valueStart, valueEnd);
        return contentLength >= 0;
      }
      if (is(bytes, from, nameLength, "host")) {
        hosts++;
        return true;
      }
      if (is(bytes, from, nameLength, "authorization")) {
        if (authorization != null) {
          return false;
        }
        authorization = text(bytes, valueStart, valueEnd);
        return true;
      }
      if (is(bytes, from, nameLength, "x-request-id")) {
        if (requestId != null) {
          return false;
        }
        requestId = text(bytes, valueStart, valueEnd);
        return true;
      }
      if (is(bytes, from, nameLength, "connection")) {
        return connection(text(bytes, valueStart, valueEnd));
      }
      return !is(bytes, from, nameLength, "transfer-encoding")
          && !is(bytes, from, nameLength, "expect")
          && !is(bytes, from, nameLength, "upgrade");
    }

    private boolean connection(String value) {
      for (String option : value.split(",", -1)) {
        String trimmed = option.strip();
        if (trimmed.equalsIgnoreCase("close")) {
          close = true;
        } else if (!trimmed.equalsIgnoreCase("keep-alive")) {
          return false;
        }
      }
      return true;
    }

    /** The value as a non-negative number of at most 9 digits, else -1. */
    private static long digits(byte[] bytes, int from, int end) {
      if (from == end || end - from > 9) {
        return -1;
      }
      long value = 0;
      for (int i = from; i < end; i++) {
        byte c = bytes[i];
        if (c < '0' || c > '9') {
          return -1;
        }
        value = value * 10 + (c - '0');
      }
      return value;
    }

    private static String text(byte[] bytes, int from, int end) {
      return new String(bytes, from, end - from, StandardCharsets.ISO_8859_1);
    }

    /** Whether the name is {@code lowerCaseName}, compared without regard to ASCII case. */
    private static boolean is(byte[] bytes, int from, int length, String lowerCaseName) {
      if (length != lowerCaseName.length()) {
        return false;
      }
      for (int i = 0; i < length; i++) {
        int c = bytes[from + i];
        if (c >= 'A' && c <= 'Z') {
          c += 'a' - 'A';
        }
        if (c != lowerCaseName.charAt(i)) {
          return false;
        }
      }
      return true;
    }

    private static boolean isSpace(byte c) {
      return c == ' ' || c == '\t';
    }

    /** RFC 9110's tchar. */
    private static boolean isTokenChar(byte c) {
      return (c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }
  }
}
