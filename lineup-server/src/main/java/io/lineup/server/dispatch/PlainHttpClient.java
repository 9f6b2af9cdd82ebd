package io.lineup.server.dispatch;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * HTTP/1.1 over plain TCP for the tasks of {@code http://} endpoints: one blocking request at a
 * time per connection, on the dispatcher's (virtual) thread, with kept-alive connections reused per
 * host and port.
 *
 * <p>Why not the JDK's {@code HttpClient}: its per-request machinery (an exchange and its futures,
 * a filter chain, hand-offs to its selector thread) was about a third of the server's CPU per
 * dispatched task; a request here is one write and the reads of its answer. {@code https} targets
 * stay on the JDK client (TLS, HTTP/2).
 *
 * <p>What it does: sends {@code Host}, the given headers, {@code Content-Length} (for a body, and 0
 * for a {@code POST}, {@code PUT} or {@code PATCH} without one) and the body; reads the status line
 * and headers (at most {@value #MAX_HEAD_BYTES} bytes, 1xx answers skipped), then a body framed by
 * {@code Transfer-Encoding: chunked}, {@code Content-Length} or the connection's end (none for
 * {@code HEAD}, 204 and 304), keeping at most {@code limit + 1} bytes. Redirects are not followed.
 * A connection is kept for reuse when its answer was read to the end and neither side said {@code
 * Connection: close}; one idle for {@value #IDLE_REUSE_MS} ms or more is closed instead (see {@link
 * #closeStale()}), since common servers close idle connections after 5 s. A request on a kept
 * connection that the target closed before answering a byte is sent once more on a new connection
 * (as the JDK client does): the target dropped the connection, most likely without reading the
 * request; tasks are delivered at least once and carry an {@code Idempotency-Key} either way.
 *
 * <p>Thread-safe: connections are taken from the pool by one request at a time.
 */
final class PlainHttpClient implements AutoCloseable {
  /** Longest wait for a connection, in ms, when the request's own deadline is later. */
  static final int CONNECT_TIMEOUT_MS = 10_000;

  /** A kept connection idle this long (ms) or longer is closed rather than reused. */
  static final long IDLE_REUSE_MS = 4_000;

  /** Most bytes of a response's status line and headers. */
  static final int MAX_HEAD_BYTES = 64 * 1024;

  /** Most idle connections kept per host and port; more are closed when they come back. */
  static final int MAX_IDLE_PER_TARGET = 256;

  private final Map<String, ArrayDeque<Connection>> idle = new ConcurrentHashMap<>();
  private final long idleReuseNanos;
  private volatile boolean closed;

  /** A client that reuses connections idle less than {@value #IDLE_REUSE_MS} ms. */
  PlainHttpClient() {
    this(IDLE_REUSE_MS);
  }

  /**
   * @param idleReuseMs connections idle this long (ms) or longer are closed rather than reused
   */
  PlainHttpClient(long idleReuseMs) {
    this.idleReuseNanos = idleReuseMs * 1_000_000L;
  }

  /** A deadline of the request passed: connecting, or waiting for the answer's head or body. */
  static final class DeadlineException extends IOException {
    DeadlineException(String message) {
      super(message);
    }
  }

  /**
   * Sends one request and reads its answer.
   *
   * @param uri an {@code http} URI with a host
   * @param method the request method
   * @param headers the request's own headers (names and values already checked: tokens, no control
   *     characters, Latin-1)
   * @param body the request body, empty for none
   * @param headDeadline {@link System#nanoTime()} by which the status line and headers must have
   *     come
   * @param bodyDeadline {@link System#nanoTime()} by which the body must have come
   * @param limit the most body bytes wanted; one more is kept when the body is longer
   * @throws DeadlineException when a deadline passed
   * @throws IOException when the target could not be reached or answered with something that is not
   *     HTTP/1.x
   * @throws InterruptedException when the thread was interrupted (the connection is closed)
   */
  TargetResponse send(
      URI uri,
      String method,
      Map<String, String> headers,
      byte[] body,
      long headDeadline,
      long bodyDeadline,
      int limit)
      throws IOException, InterruptedException {
    if (closed) {
      throw new IOException("the dispatch client is closed");
    }
    String host = uri.getHost();
    int port = uri.getPort() < 0 ? 80 : uri.getPort();
    String target = host + ":" + port;
    byte[] request = request(uri, method, headers, body);
    while (true) {
      Connection connection = take(target);
      boolean reused = connection != null;
      if (connection == null) {
        connection = Connection.open(host, port, headDeadline);
      }
      try {
        connection.out.write(request);
        connection.out.flush();
        TargetResponse response = connection.read(method, headDeadline, bodyDeadline, limit);
        if (connection.reusable) {
          give(target, connection);
        } else {
          connection.close();
        }
        return response;
      } catch (IOException e) {
        connection.close();
        if (Thread.interrupted()) {
          throw new InterruptedException("interrupted while waiting for " + target);
        }
        if (reused && !connection.answered && !(e instanceof DeadlineException)) {
          continue;
        }
        throw e;
      }
    }
  }

  private static byte[] request(URI uri, String method, Map<String, String> headers, byte[] body) {
    StringBuilder head = new StringBuilder(256);
    String path = uri.getRawPath();
    head.append(method).append(' ').append(path == null || path.isEmpty() ? "/" : path);
    if (uri.getRawQuery() != null) {
      head.append('?').append(uri.getRawQuery());
    }
    head.append(" HTTP/1.1\r\nHost: ").append(uri.getHost());
    if (uri.getPort() >= 0 && uri.getPort() != 80) {
      head.append(':').append(uri.getPort());
    }
    head.append("\r\n");
    for (Map.Entry<String, String> header : headers.entrySet()) {
      head.append(header.getKey()).append(": ").append(header.getValue()).append("\r\n");
    }
    if (body.length > 0
        || method.equals("POST")
        || method.equals("PUT")
        || method.equals("PATCH")) {
      head.append("Content-Length: ").append(body.length).append("\r\n");
    }
    head.append("\r\n");
    byte[] headBytes = head.toString().getBytes(StandardCharsets.ISO_8859_1);
    byte[] all = Arrays.copyOf(headBytes, headBytes.length + body.length);
    System.arraycopy(body, 0, all, headBytes.length, body.length);
    return all;
  }

  /** The most recently used idle connection to target, or null; stale ones are closed. */
  private Connection take(String target) {
    ArrayDeque<Connection> connections = idle.get(target);
    if (connections == null) {
      return null;
    }
    long now = System.nanoTime();
    while (true) {
      Connection connection;
      synchronized (connections) {
        connection = connections.pollLast();
      }
      if (connection == null) {
        return null;
      }
      if (now - connection.idleSince < idleReuseNanos) {
        return connection;
      }
      connection.close();
    }
  }

  private void give(String target, Connection connection) {
    ArrayDeque<Connection> connections = idle.computeIfAbsent(target, t -> new ArrayDeque<>());
    connection.idleSince = System.nanoTime();
    Connection dropped = connection;
    synchronized (connections) {
      if (!closed && connections.size() < MAX_IDLE_PER_TARGET) {
        connections.addLast(connection);
        dropped = null;
      }
    }
    if (dropped != null) {
      dropped.close();
    }
  }

  /**
   * Closes the idle connections that may no longer be reused, so that a target called no more does
   * not keep them open. Called every quarter second by the dispatch service.
   */
  void closeStale() {
    long now = System.nanoTime();
    for (ArrayDeque<Connection> connections : idle.values()) {
      List<Connection> stale = new ArrayList<>();
      synchronized (connections) {
        // Oldest first: connections come back at the tail.
        while (!connections.isEmpty()
            && now - connections.peekFirst().idleSince >= idleReuseNanos) {
          stale.add(connections.pollFirst());
        }
      }
      stale.forEach(Connection::close);
    }
  }

  /** Closes every idle connection; later requests fail. */
  @Override
  public void close() {
    closed = true;
    for (ArrayDeque<Connection> connections : idle.values()) {
      List<Connection> all;
      synchronized (connections) {
        all = new ArrayList<>(connections);
        connections.clear();
      }
      all.forEach(Connection::close);
    }
  }

  /** One connection and its read buffer. */
  private static final class Connection {
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

    private Connection(Socket socket) throws IOException {
      this.socket = socket;
      this.in = socket.getInputStream();
      this.out = socket.getOutputStream();
    }

    static Connection open(String host, int port, long deadline) throws IOException {
      long left = millisLeft(deadline, "connecting to " + host + ":" + port);
      Socket socket = new Socket();
      try {
        socket.setTcpNoDelay(true);
        socket.connect(new InetSocketAddress(host, port), (int) Math.min(CONNECT_TIMEOUT_MS, left));
        return new Connection(socket);
      } catch (SocketTimeoutException e) {
        closeQuietly(socket);
        throw new DeadlineException("connecting to " + host + ":" + port + " timed out");
      } catch (IOException | RuntimeException e) {
        closeQuietly(socket);
        throw e;
      }
    }

    TargetResponse read(String method, long headDeadline, long bodyDeadline, int limit)
        throws IOException {
      answered = false;
      reusable = false;
      int status;
      SortedMap<String, List<String>> headers;
      boolean http10;
      int headBytes = 0;
      while (true) {
        String statusLine = line(headDeadline, MAX_HEAD_BYTES);
        headBytes = statusLine.length() + 2;
        if (!statusLine.startsWith("HTTP/1.") || statusLine.length() < 12) {
          throw new IOException("not an HTTP/1.x answer: " + shorten(statusLine));
        }
        http10 = statusLine.charAt(7) == '0';
        status = parseStatus(statusLine);
        headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        while (true) {
          String line = line(headDeadline, MAX_HEAD_BYTES - headBytes);
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
      Body body = new Body(limit);
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
    private boolean chunked(Body body, long deadline) throws IOException {
      while (true) {
        String size = line(deadline, 1024);
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
            String trailer = line(deadline, MAX_HEAD_BYTES - trailerBytes);
            trailerBytes += trailer.length() + 2;
            if (trailer.isEmpty()) {
              return true;
            }
          }
        }
        if (!exactly(body, length, deadline)) {
          return false;
        }
        if (!line(deadline, 2).isEmpty()) {
          throw new IOException("a chunk longer than its size");
        }
      }
    }

    /** Reads length body bytes; true when all were read, false when the body was cut. */
    private boolean exactly(Body body, long length, long deadline) throws IOException {
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

    private void toTheEnd(Body body, long deadline) throws IOException {
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

    /** A line without its CRLF (a bare LF also ends it), of at most max bytes. */
    private String line(long deadline, int max) throws IOException {
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
          throw new IOException("the answer's head is over " + MAX_HEAD_BYTES + " bytes");
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
        throw new DeadlineException("the answer did not come in time");
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
  }

  /** Collects up to limit + 1 body bytes. */
  private static final class Body {
    private final int limit;
    private byte[] bytes = new byte[0];
    private int size;

    Body(int limit) {
      this.limit = limit;
    }

    /** Adds bytes; true once more than limit bytes are held (the rest is not wanted). */
    boolean add(byte[] from, int offset, int length) {
      int take = Math.min(length, limit + 1 - size);
      if (size + take > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.min(limit + 1, Math.max(size + take, bytes.length * 2)));
      }
      System.arraycopy(from, offset, bytes, size, take);
      size += take;
      return size > limit;
    }

    byte[] bytes() {
      return size == bytes.length ? bytes : Arrays.copyOf(bytes, size);
    }
  }

  private static long millisLeft(long deadline, String what) throws DeadlineException {
    long left = (deadline - System.nanoTime()) / 1_000_000L;
    if (left <= 0) {
      throw new DeadlineException(what + ": the attempt's time is up");
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
