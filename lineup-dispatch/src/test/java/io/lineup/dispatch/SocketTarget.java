package io.lineup.dispatch;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * An HTTP/1.1 target on a raw socket of 127.0.0.1, for tests of the egress client: it counts the
 * connections it accepts, records each request's head, and answers with the bytes a function gives
 * (null: no answer at all), keeping the connection open for the next request.
 */
final class SocketTarget implements AutoCloseable {
  private final ServerSocket server;
  private final AtomicInteger connections = new AtomicInteger();
  private final List<String> heads = new CopyOnWriteArrayList<>();
  private final List<Socket> open = new CopyOnWriteArrayList<>();
  private final Function<String, String> answers;

  /**
   * @param answers the raw answer (status line, headers and body) to a request's head, or null to
   *     answer nothing
   */
  SocketTarget(Function<String, String> answers) throws IOException {
    this.answers = answers;
    this.server = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
    Thread.ofVirtual().start(this::accept);
  }

  /** A 200 answer with this body, kept alive. */
  static String ok(String body) {
    return "HTTP/1.1 200 OK\r\nContent-Length: "
        + body.length()
        + "\r\nContent-Type: text/plain\r\n\r\n"
        + body;
  }

  int port() {
    return server.getLocalPort();
  }

  /** Connections accepted so far. */
  int connections() {
    return connections.get();
  }

  /** The heads of the requests read so far (request line and headers). */
  List<String> heads() {
    return heads;
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket socket = server.accept();
        connections.incrementAndGet();
        open.add(socket);
        Thread.ofVirtual().start(() -> serve(socket));
      } catch (IOException closed) {
        return;
      }
    }
  }

  private void serve(Socket socket) {
    try (socket) {
      InputStream in = socket.getInputStream();
      OutputStream out = socket.getOutputStream();
      while (true) {
        String head = readHead(in);
        if (head == null) {
          return;
        }
        int length = contentLength(head);
        in.readNBytes(length);
        heads.add(head);
        String answer = answers.apply(head);
        if (answer == null) {
          in.read(); // hold the connection until the client gives up
          return;
        }
        out.write(answer.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
      }
    } catch (IOException gone) {
      // The client closed or aborted.
    }
  }

  private static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        return null;
      }
      head.write(b);
      matched =
          (b == '\r' && matched % 2 == 0) || (b == '\n' && matched % 2 == 1) ? matched + 1 : 0;
    }
    return head.toString(StandardCharsets.ISO_8859_1);
  }

  private static int contentLength(String head) {
    for (String line : head.split("\r\n")) {
      if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
        return Integer.parseInt(line.substring(15).trim());
      }
    }
    return 0;
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (Socket socket : open) {
      socket.close();
    }
  }
}
