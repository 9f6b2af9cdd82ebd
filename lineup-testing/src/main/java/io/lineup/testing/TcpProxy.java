package io.lineup.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A small TCP proxy on 127.0.0.1 between a client under test and a real server (a database, a
 * Redis), which a test can {@link #cut()} and {@link #restore()}: an outage of that server as the
 * client sees it, without touching the server itself. While cut, every open connection is closed
 * and new ones are accepted and closed at once (the client sees resets, as when a server dies).
 *
 * <pre>{@code
 * try (TcpProxy proxy = TcpProxy.to("127.0.0.1", 5432)) {
 *   String url = "jdbc:postgresql://127.0.0.1:" + proxy.port() + "/test";
 *   ...
 *   proxy.cut();
 *   ...
 *   proxy.restore();
 * }
 * }</pre>
 */
public final class TcpProxy implements AutoCloseable {
  private final String targetHost;
  private final int targetPort;
  private final ServerSocket server;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private volatile boolean cut;
  private volatile boolean closed;

  private TcpProxy(String targetHost, int targetPort) throws IOException {
    this.targetHost = targetHost;
    this.targetPort = targetPort;
    this.server = new ServerSocket();
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    Thread.ofVirtual().name("tcp-proxy-accept").start(this::acceptLoop);
  }

  /**
   * Starts a proxy on a free port of 127.0.0.1 that forwards to {@code host:port}.
   *
   * @throws UncheckedIOException when no port can be bound
   */
  public static TcpProxy to(String host, int port) {
    try {
      return new TcpProxy(host, port);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The port clients connect to. */
  public int port() {
    return server.getLocalPort();
  }

  /** Closes every connection through the proxy and refuses new ones until {@link #restore()}. */
  public void cut() {
    cut = true;
    for (Socket socket : open) {
      closeQuietly(socket);
    }
    open.clear();
  }

  /** Lets connections through again. */
  public void restore() {
    cut = false;
  }

  /** Whether the proxy is cut. */
  public boolean isCut() {
    return cut;
  }

  private void acceptLoop() {
    while (!closed) {
      Socket client;
      try {
        client = server.accept();
      } catch (IOException e) {
        return; // closed
      }
      if (cut) {
        closeQuietly(client);
        continue;
      }
      Thread.ofVirtual().name("tcp-proxy-connect").start(() -> connect(client));
    }
  }

  private void connect(Socket client) {
    Socket upstream = new Socket();
    try {
      upstream.connect(new InetSocketAddress(targetHost, targetPort), 5_000);
    } catch (IOException e) {
      closeQuietly(client);
      closeQuietly(upstream);
      return;
    }
    open.add(client);
    open.add(upstream);
    if (cut) {
      cut();
      return;
    }
    Thread.ofVirtual().name("tcp-proxy-up").start(() -> pump(client, upstream));
    Thread.ofVirtual().name("tcp-proxy-down").start(() -> pump(upstream, client));
  }

  private void pump(Socket from, Socket to) {
    byte[] buffer = new byte[16 * 1024];
    try (InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream()) {
      int n;
      while ((n = in.read(buffer)) >= 0) {
        out.write(buffer, 0, n);
        out.flush();
      }
    } catch (IOException ended) {
      // One side closed or the proxy was cut: close both below.
    } finally {
      closeQuietly(from);
      closeQuietly(to);
      open.remove(from);
      open.remove(to);
    }
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException ignored) {
      // Closing is all that is wanted.
    }
  }

  /** Stops accepting and closes every connection. */
  @Override
  public void close() {
    closed = true;
    closeQuietly(server);
    cut();
  }

  private static void closeQuietly(ServerSocket socket) {
    try {
      socket.close();
    } catch (IOException ignored) {
      // Closing is all that is wanted.
    }
  }
}
