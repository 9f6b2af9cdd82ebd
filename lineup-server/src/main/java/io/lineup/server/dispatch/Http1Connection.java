package io.lineup.server.dispatch;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One HTTP/1.1 connection of the {@link PlainHttpClient} and its read buffer: writes a request and
 * reads its answer (status line, headers, a body framed by {@code Transfer-Encoding: chunked},
 * {@code Content-Length} or the connection's end), each read bounded by a deadline. Used by one
 * request at a time.
 */
final class Http1Connection {
  /** Longest line of a chunk's size (hex digits and extensions), in bytes. */
  private static final int MAX_CHUNK_SIZE_LINE = 1024;

  // What line() says when a line is longer than it may be; constants, so a read makes no text.
  private static final String HEAD_TOO_LONG =
      "the answer's head is over " + PlainHttpClient.MAX_HEAD_BYTES + " bytes";
  private static final String CHUNK_SIZE_TOO_LONG =
      "a chunk size line is over " + MAX_CHUNK_SIZE_LINE + " bytes";
  private static final String CHUNK_TOO_LONG = "a chunk longer than its size";
  private static final String TRAILERS_TOO_LONG =
      "the body's trailers are over " + PlainHttpClient.MAX_HEAD_BYTES + " bytes";

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;
  private final byte[] buffer = new byte[8192];
  private int position;
  private int end;

  /** Whether any byte of an answer came on this connection's current request. */
  private boolean answered;

  /** Whether the last answer was read to its end and the connection may carry another. */
  private boolean reusable;

  private long idleSince;

  private Http1Connection(Socket socket) throws IOException {
    this.socket = socket;
    this.in = socket.getInputStream();
    this.out = socket.getOutputStream();
  }

  /** Sends a request's bytes. */
  void write(byte[] request) throws IOException {
    out.write(request);
    out.flush();
  }

  /** Whether any byte of an answer came for the last request. */
  boolean answered() {
    return answered;
  }

  /** Whether the last answer was read to its end and the connection may carry another request. */
  boolean reusable() {
    return reusable;
  }

  /** When this connection became idle ({@link System#nanoTime()}). */
  long idleSince() {
    return idleSince;
  }

  /** Marks this connection idle from now. */
  void idleFromNow() {
    idleSince = System.nanoTime();
  }

  /**
   * Opens a connection, waiting at most {@link PlainHttpClient#CONNECT_TIMEOUT_MS} and never past
   * the deadline ({@link System#nanoTime()}).
   *
   * @throws PlainHttpClient.DeadlineException when connecting took too long
   * @throws IOException when the target could not be reached
   */
  static Http1Connection open(String host, int port, long deadline) throws IOException {
    long left = millisLeft(deadline, "connecting to " + host + ":" + port);
    Socket socket = new Socket();
    try {
      socket.setTcpNoDelay(true);
      socket.connect(
          new InetSocketAddress(host, port),
          (int) Math.min(PlainHttpClient.CONNECT_TIMEOUT_MS, left));
      return new Http1Connection(socket);
    } catch (SocketTimeoutException e) {
      closeQuietly(socket);
      throw new PlainHttpClient.DeadlineException(
          "connecting to " + host + ":" + port + " timed out");
    } catch (IOException | RuntimeException e) {
      closeQuietly(socket);
      throw e;
    }
  }

  /**
   * Reads the answer to the request just written.
   *
   * @param method the request's method ({@code HEAD} answers have no body)
   * @param headDeadline {@link System#nanoTime()} by which the status line and headers must come
   * @param bodyDeadline {@link System#nanoTime()} by which the body must come
   * @param limit the most body bytes kept; one more when the body is longer (then the rest is not
   *     read and the connection is not reusable)
   * @throws PlainHttpClient.DeadlineException when a deadline passed
   * @throws IOException when the answer is not HTTP/1.x or the connection ends early
   */
  TargetResponse read(String method, long headDeadline, long bodyDeadline, int limit)
      throws IOException {
    answered = false;
    reusable = false;
    int status;
    SortedMap<String, List<String>> headers;
    boolean http10;
    int headBytes = 0;
    while (true) {
      String statusLine = line(headDeadline, PlainHttpClient.MAX_HEAD_BYTES, HEAD_TOO_LONG);
      headBytes = statusLine.length() + 2;
      if (!statusLine.startsWith("HTTP/1.") || statusLine.length() < 12) {
        throw new IOException("not an HTTP/1.x answer: " + shorten(statusLine));
      }
      http10 = statusLine.charAt(7) == '0';
      status = parseStatus(statusLine);
      headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
      while (true) {
        String line = line(headDeadline, PlainHttpClient.MAX_HEAD_BYTES - headBytes, HEAD_TOO_LONG);
        headBytes += line.length() + 2;
        if (line.isEmpty()) {
          break;
        }
        int colon = line.indexOf(':');
        if (colon <= 0) {
          throw new IOException("a malformed header line: " + shorten(line));
        }
        headers
            .computeIfAbsent(line.substring(0, colon).trim(), k -> new ArrayList<>(1))
            .add(line.substring(colon + 1).trim());
      }
      if (status == 101) {
        throw new IOException("the target switched protocols (101), which was not asked for");
      }
      if (status >= 200) {
        break;
      }
      // 1xx: an interim answer; the final one follows.
    }
    boolean keepAlive = !http10 && !hasToken(headers.get("connection"), "close");
    if (method.equals("HEAD") || status == 204 || status == 304) {
      reusable = keepAlive && position == end;
      return new TargetResponse(status, headers, new byte[0]);
    }
    CappedBytes body = new CappedBytes(limit);
    boolean whole;
    if (hasToken(headers.get("transfer-encoding"), "chunked")) {
      whole = chunked(body, bodyDeadline);
    } else if (headers.containsKey("content-length")) {
      long length = contentLength(headers.get("content-length"));
      whole = exactly(body, length, bodyDeadline);
    } else {
      toTheEnd(body, bodyDeadline);
      whole = false;
    }
    // Bytes after the answer would be read as the next one's: such a connection is not reused.
    reusable = keepAlive && whole && position == end;
    return new TargetResponse(status, headers, body.bytes());
  }

  /** Reads a chunked body; true when read to its end (not cut). */
  private boolean chunked(CappedBytes body, long deadline) throws IOException {
    while (true) {
      String size = line(deadline, MAX_CHUNK_SIZE_LINE, CHUNK_SIZE_TOO_LONG);
      int ext = size.indexOf(';');
      long length;
      try {
        length = Long.parseLong((ext < 0 ? size : size.substring(0, ext)).trim(), 16);
      } catch (NumberFormatException e) {
        throw new IOException("a malformed chunk size: " + shorten(size));
      }
      if (length < 0) {
        throw new IOException("a malformed chunk size: " + shorten(size));
      }
      if (length == 0) {
        // Trailers, up to the empty line.
        int trailerBytes = 0;
        while (true) {
          String trailer =
              line(deadline, PlainHttpClient.MAX_HEAD_BYTES - trailerBytes, TRAILERS_TOO_LONG);
          trailerBytes += trailer.length() + 2;
          if (trailer.isEmpty()) {
            return true;
          }
        }
      }
      if (!exactly(body, length, deadline)) {
        return false;
      }
      if (!line(deadline, 2, CHUNK_TOO_LONG).isEmpty()) {
        throw new IOException(CHUNK_TOO_LONG);
      }
    }
  }

  /** Reads length body bytes; true when all were read, false when the body was cut. */
  private boolean exactly(CappedBytes body, long length, long deadline) throws IOException {
    long left = length;
    while (left > 0) {
      if (position == end) {
        fill(deadline, "the body");
      }
      int n = (int) Math.min(left, end - position);
      boolean full = body.add(buffer, position, n);
      position += n;
      left -= n;
      if (full) {
        return false;
      }
    }
    return true;
  }

  private void toTheEnd(CappedBytes body, long deadline) throws IOException {
    while (true) {
      if (position == end && !fillOrEnd(deadline)) {
        return;
      }
      int n = end - position;
      boolean full = body.add(buffer, position, n);
      position += n;
      if (full) {
        return;
      }
    }
  }

  /**
   * A line without its CRLF (a bare LF also ends it), of at most max bytes.
   *
   * @param tooLong what the error says when the line is longer
   */
  private String line(long deadline, int max, String tooLong) throws IOException {
    StringBuilder line = new StringBuilder(64);
    while (true) {
      if (position == end) {
        fill(deadline, "the answer's head");
      }
      byte b = buffer[position++];
      if (b == '\n') {
        int length = line.length();
        if (length > 0 && line.charAt(length - 1) == '\r') {
          line.setLength(length - 1);
        }
        return line.toString();
      }
      if (line.length() >= max) {
        throw new IOException(tooLong);
      }
      line.append((char) (b & 0xff));
    }
  }

  private void fill(long deadline, String what) throws IOException {
    if (!fillOrEnd(deadline)) {
      throw new IOException("the target closed the connection before the end of " + what);
    }
  }

  /** Reads more into the buffer; false at the connection's end. */
  private boolean fillOrEnd(long deadline) throws IOException {
    socket.setSoTimeout((int) Math.max(1, millisLeft(deadline, "waiting for the answer")));
    int n;
    try {
      n = in.read(buffer, 0, buffer.length);
    } catch (SocketTimeoutException e) {
      throw new PlainHttpClient.DeadlineException("the answer did not come in time");
    }
    if (n < 0) {
      return false;
    }
    answered = true;
    position = 0;
    end = n;
    return true;
  }

  void close() {
    closeQuietly(socket);
  }

  private static long millisLeft(long deadline, String what)
      throws PlainHttpClient.DeadlineException {
    long left = (deadline - System.nanoTime()) / 1_000_000L;
    if (left <= 0) {
      throw new PlainHttpClient.DeadlineException(what + ": the attempt's time is up");
    }
    return left;
  }

  private static int parseStatus(String statusLine) throws IOException {
    int code = 0;
    for (int i = 9; i < 12; i++) {
      char c = statusLine.charAt(i);
      if (c < '0' || c > '9') {
        throw new IOException("a malformed status line: " + shorten(statusLine));
      }
      code = code * 10 + (c - '0');
    }
    if (statusLine.charAt(8) != ' '
        || code < 100
        || (statusLine.length() > 12 && statusLine.charAt(12) != ' ')) {
      throw new IOException("a malformed status line: " + shorten(statusLine));
    }
    return code;
  }

  private static long contentLength(List<String> values) throws IOException {
    long length = -1;
    for (String value : values) {
      for (String part : value.split(",")) {
        long parsed;
        try {
          parsed = Long.parseLong(part.trim());
        } catch (NumberFormatException e) {
          throw new IOException("a malformed Content-Length: " + shorten(value));
        }
        if (parsed < 0 || (length >= 0 && parsed != length)) {
          throw new IOException("a malformed Content-Length: " + shorten(value));
        }
        length = parsed;
      }
    }
    return length;
  }

  /** Whether a comma list header holds token (case-insensitive). */
  private static boolean hasToken(List<String> values, String token) {
    if (values == null) {
      return false;
    }
    for (String value : values) {
      for (String part : value.split(",")) {
        if (part.trim().toLowerCase(Locale.ROOT).equals(token)) {
          return true;
        }
      }
    }
    return false;
  }

  private static String shorten(String text) {
    return text.length() <= 80 ? text : text.substring(0, 80) + "...";
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException ignored) {
      // Closing is best effort: the socket is dropped either way.
    }
  }
}
