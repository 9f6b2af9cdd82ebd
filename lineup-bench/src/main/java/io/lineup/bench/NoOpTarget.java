package io.lineup.bench;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The endpoint the dispatch figures send to: an HTTP/1.1 server on 127.0.0.1 that answers every
 * request {@code 204 No Content} on the same keep-alive connection, written by hand for the same
 * reason as {@link Http11Connection}: the target shares the two cores with the server it measures,
 * and the JDK's {@code HttpServer} (a selector thread, then a thread per exchange) cost about 25 µs
 * of CPU per request, a quarter of the bench's CPU per dispatched task. One platform thread per
 * connection, blocking in the kernel. It reads bodies by {@code Content-Length} or chunked, and
 * hands the arrival time ({@link System#nanoTime()} once the request head is read) and the {@code
 * Idempotency-Key} header (or null) to its listener.
 */
final class NoOpTarget implements AutoCloseable {
  /** Told of every request that arrives, on the connection's thread. */
  interface Arrivals {
    void arrived(long nanos, String idempotencyKey);
  }

  private static final byte[] NO_CONTENT =
      "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] CLOSE =
      "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
          .getBytes(StandardCharsets.US_ASCII);
  private static final int MAX_HEAD_LINE = 16 * 1024;

  private final ServerSocket listener;
  private final Arrivals arrivals;
  private final Set<Socket> connections = ConcurrentHashMap.newKeySet();
  private final AtomicInteger accepted = new AtomicInteger();
  private volatile boolean closed;

  NoOpTarget(Arrivals arrivals) throws IOException {
    this.arrivals = arrivals;
    this.listener = new ServerSocket(0, 1024, InetAddress.getLoopbackAddress());
    Thread.ofPlatform().daemon().name("bench-target-accept").start(this::acceptLoop);
  }

  /** How many connections it has accepted so far. */
  int connectionsAccepted() {
    return accepted.get();
  }

  /** The port it listens on, on 127.0.0.1. */
  int port() {
    return listener.getLocalPort();
  }

  private void acceptLoop() {
    while (!closed) {
      try {
        Socket socket = listener.accept();
        socket.setTcpNoDelay(true);
        connections.add(socket);
        Thread.ofPlatform()
            .daemon()
            .name("bench-target-" + accepted.incrementAndGet())
            .start(() -> serve(socket));
      } catch (IOException e) {
        if (!closed) {
          System.err.println("[bench] target: accept failed: " + e.getMessage());
        }
      }
    }
  }

  private void serve(Socket socket) {
    try (socket) {
      serveRequests(socket);
    } catch (SocketException e) {
      // the client went away mid-request, or the target closed: nothing to answer
    } catch (IOException | RuntimeException e) {
      if (!closed) {
        System.err.println("[bench] target: connection failed: " + e);
      }
    } finally {
      connections.remove(socket);
    }
  }

  private void serveRequests(Socket socket) throws IOException {
    InputStream in = new BufferedInputStream(socket.getInputStream(), 8192);
    OutputStream out = socket.getOutputStream();
    while (!closed) {
      String requestLine = line(in);
      if (requestLine == null) {
        return; // the client closed the connection between requests
      }
      long now = System.nanoTime();
      long length = 0;
      boolean chunked = false;
      boolean close = requestLine.endsWith("HTTP/1.0");
      String key = null;
      for (String header = line(in); header != null && !header.isEmpty(); header = line(in)) {
        int colon = header.indexOf(':');
        if (colon <= 0) {
          continue;
        }
        String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
        String value = header.substring(colon + 1).trim();
        switch (name) {
          case "content-length" -> length = Long.parseLong(value);
          case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
          case "connection" -> close = value.equalsIgnoreCase("close");
          case "idempotency-key" -> key = value;
          default -> {}
        }
      }
      if (chunked) {
        skipChunks(in);
      } else {
        in.skipNBytes(length);
      }
      arrivals.arrived(now, key);
      out.write(close ? CLOSE : NO_CONTENT);
      out.flush();
      if (close) {
        return;
      }
    }
  }

  private static void skipChunks(InputStream in) throws IOException {
    while (true) {
      String size = line(in);
      if (size == null) {
        throw new IOException("connection closed inside a chunked body");
      }
      int semicolon = size.indexOf(';');
      long bytes = Long.parseLong((semicolon < 0 ? size : size.substring(0, semicolon)).trim(), 16);
      if (bytes == 0) {
        while (true) { // trailers, up to the empty line
          String trailer = line(in);
          if (trailer == null || trailer.isEmpty()) {
            return;
          }
        }
      }
      in.skipNBytes(bytes);
      line(in); // the CRLF after the chunk's data
    }
  }

  /** One CRLF-ended line without its end, or null at the end of the stream before any byte. */
  private static String line(InputStream in) throws IOException {
    StringBuilder text = new StringBuilder(64);
    while (true) {
      int b = in.read();
      if (b < 0) {
        if (text.isEmpty()) {
          return null;
        }
        throw new IOException("connection closed inside a line");
      }
      if (b == '\n') {
        int end = text.length();
        return end > 0 && text.charAt(end - 1) == '\r'
            ? text.substring(0, end - 1)
            : text.toString();
      }
      if (text.length() >= MAX_HEAD_LINE) {
        throw new IOException("request head line over " + MAX_HEAD_LINE + " bytes");
      }
      text.append((char) b);
    }
  }

  @Override
  public void close() {
    closed = true;
    try {
      listener.close();
    } catch (IOException e) {
      // closing anyway
    }
    for (Socket socket : connections) {
      try {
        socket.close();
      } catch (IOException e) {
        // closing anyway
      }
    }
  }
}
