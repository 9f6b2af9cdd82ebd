package io.lineup.server.dispatch;

import java.io.IOException;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * HTTP/1.1 over plain TCP for the tasks of {@code http://} endpoints: one blocking request at a
 * time per connection, on the dispatcher's (virtual) thread, with kept-alive connections reused per
 * host and port.
 *
 * <p>Why not the JDK's {@code HttpClient}: its per-request machinery (an exchange and its futures,
 * a filter chain, hand-offs to its selector thread) was about a third of the server's CPU per
 * dispatched task; a request here is one write and the reads of its answer. {@code https} targets,
 * and targets the JVM's proxy settings send through a proxy, stay on the JDK client ({@link
 * #takes}).
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

  private final Map<String, ArrayDeque<Http1Connection>> idle = new ConcurrentHashMap<>();
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
   * Whether this client sends a request to {@code uri}: an {@code http} URI that the JVM's proxy
   * settings reach directly. A URI that {@code proxies} sends through a proxy (the {@code
   * http.proxyHost} system properties, or a selector the application installed) is left to the
   * JDK's client, which speaks to proxies.
   *
   * @param proxies the JVM's default proxy selector, or null when there is none
   */
  static boolean takes(URI uri, ProxySelector proxies) {
    if (!"http".equals(uri.getScheme())) {
      return false;
    }
    if (proxies == null) {
      return true;
    }
    List<Proxy> chosen = proxies.select(uri);
    return chosen == null || chosen.isEmpty() || chosen.get(0).type() == Proxy.Type.DIRECT;
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
      Http1Connection connection = take(target);
      boolean reused = connection != null;
      if (connection == null) {
        connection = Http1Connection.open(host, port, headDeadline);
      }
      try {
        connection.write(request);
        TargetResponse response = connection.read(method, headDeadline, bodyDeadline, limit);
        if (connection.reusable()) {
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
        if (reused && !connection.answered() && !(e instanceof DeadlineException)) {
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
  private Http1Connection take(String target) {
    ArrayDeque<Http1Connection> connections = idle.get(target);
    if (connections == null) {
      return null;
    }
    long now = System.nanoTime();
    while (true) {
      Http1Connection connection;
      synchronized (connections) {
        connection = connections.pollLast();
      }
      if (connection == null) {
        return null;
      }
      if (now - connection.idleSince() < idleReuseNanos) {
        return connection;
      }
      connection.close();
    }
  }

  private void give(String target, Http1Connection connection) {
    ArrayDeque<Http1Connection> connections = idle.computeIfAbsent(target, t -> new ArrayDeque<>());
    connection.idleFromNow();
    Http1Connection dropped = connection;
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
    for (ArrayDeque<Http1Connection> connections : idle.values()) {
      List<Http1Connection> stale = new ArrayList<>();
      synchronized (connections) {
        // Oldest first: connections come back at the tail.
        while (!connections.isEmpty()
            && now - connections.peekFirst().idleSince() >= idleReuseNanos) {
          stale.add(connections.pollFirst());
        }
      }
      stale.forEach(Http1Connection::close);
    }
  }

  /** Closes every idle connection; later requests fail. */
  @Override
  public void close() {
    closed = true;
    for (ArrayDeque<Http1Connection> connections : idle.values()) {
      List<Http1Connection> all;
      synchronized (connections) {
        all = new ArrayList<>(connections);
        connections.clear();
      }
      all.forEach(Http1Connection::close);
    }
  }
}
