package io.lineup.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Sends one fixed HTTP/1.1 request a given number of times over keep-alive connections, each with
 * one request outstanding, all driven by one thread and a selector (the way load generators such as
 * wrk work). With a blocking platform thread per connection the bench spent about 19 µs of CPU per
 * request, most of it in the kernel waking and switching threads, on the two cores that the server
 * under test needs; here each readiness check serves every connection that has an answer.
 *
 * <p>It expects answers with a {@code Content-Length} (the server's JSON answers all have one) and
 * fails on any other status than the expected one, on a closed connection, or when no answer came
 * for {@link #STALL}.
 */
final class RepeatedRequest {
  /** Longest time without any answer before the run fails. */
  static final Duration STALL = Duration.ofSeconds(30);

  /** Largest answer head and body held at once for one connection. */
  static final int ANSWER_BUFFER_BYTES = 16 * 1024;

  private static final byte[] CONTENT_LENGTH =
      "content-length:".getBytes(StandardCharsets.US_ASCII);

  private RepeatedRequest() {}

  /**
   * Sends {@code request} {@code total} times over {@code connections} connections to {@code
   * host}:{@code port} and reads every answer.
   *
   * @param request the whole request, head and body
   * @return nanoseconds from the first request sent to the last answer read
   * @throws IOException when a connection fails, the server closes one, an answer is not {@code
   *     expectedStatus}, or nothing is answered for {@link #STALL}
   */
  static long run(
      String host, int port, byte[] request, int total, int connections, int expectedStatus)
      throws IOException {
    List<Connection> open = new ArrayList<>();
    try (Selector selector = Selector.open()) {
      try {
        for (int i = 0; i < Math.min(connections, total); i++) {
          open.add(new Connection(host, port, selector, request));
        }
        return drive(selector, open, total, expectedStatus);
      } finally {
        for (Connection connection : open) {
          connection.close();
        }
      }
    }
  }

  private static long drive(Selector selector, List<Connection> open, int total, int expected)
      throws IOException {
    int sent = 0;
    int answered = 0;
    long start = System.nanoTime();
    for (Connection connection : open) {
      connection.send();
      sent++;
    }
    long lastAnswer = System.nanoTime();
    while (answered < total) {
      selector.select(1000);
      for (SelectionKey key : selector.selectedKeys()) {
        Connection connection = (Connection) key.attachment();
        if (key.isWritable()) {
          connection.writeRest();
        }
        if (key.isReadable()) {
          int answers = connection.readAnswers(expected);
          answered += answers;
          if (answers > 0) {
            lastAnswer = System.nanoTime();
            if (sent < total) {
              connection.send();
              sent++;
            }
          }
        }
      }
      selector.selectedKeys().clear();
      if (System.nanoTime() - lastAnswer > STALL.toNanos()) {
        throw new IOException(
            "no answer for " + STALL.toSeconds() + " s; " + answered + " of " + total + " read");
      }
    }
    return System.nanoTime() - start;
  }

  /** One keep-alive connection with at most one request outstanding. */
  private static final class Connection {
    private final SocketChannel channel;
    private final SelectionKey key;
    private final ByteBuffer request;
    private final ByteBuffer answer = ByteBuffer.allocate(ANSWER_BUFFER_BYTES);

    Connection(String host, int port, Selector selector, byte[] request) throws IOException {
      channel = SocketChannel.open(new InetSocketAddress(host, port));
      channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
      channel.configureBlocking(false);
      key = channel.register(selector, SelectionKey.OP_READ, this);
      this.request = ByteBuffer.wrap(request);
    }

    void send() throws IOException {
      request.rewind();
      writeRest();
    }

    /** Writes what the socket takes; waits for writability when some is left. */
    void writeRest() throws IOException {
      channel.write(request);
      int interest = SelectionKey.OP_READ | (request.hasRemaining() ? SelectionKey.OP_WRITE : 0);
      if (key.interestOps() != interest) {
        key.interestOps(interest);
      }
    }

    /**
     * Reads what has arrived; returns the number of whole answers (0 or 1, one request being
     * outstanding).
     */
    int readAnswers(int expected) throws IOException {
      if (channel.read(answer) < 0) {
        throw new IOException("the server closed a connection");
      }
      int headEnd = headEnd();
      if (headEnd < 0) {
        if (!answer.hasRemaining()) {
          throw new IOException("an answer head longer than " + ANSWER_BUFFER_BYTES + " bytes");
        }
        return 0;
      }
      byte[] bytes = answer.array();
      int status = (bytes[9] - '0') * 100 + (bytes[10] - '0') * 10 + (bytes[11] - '0');
      int length = contentLength(bytes, headEnd);
      if (headEnd + length > ANSWER_BUFFER_BYTES) {
        throw new IOException("an answer longer than " + ANSWER_BUFFER_BYTES + " bytes");
      }
      if (answer.position() < headEnd + length) {
        return 0;
      }
      if (status != expected) {
        throw new IOException(
            "answered "
                + status
                + " where "
                + expected
                + " was expected: "
                + new String(bytes, 0, answer.position(), StandardCharsets.UTF_8));
      }
      if (answer.position() > headEnd + length) {
        throw new IOException("an answer came that no request asked for");
      }
      answer.clear();
      return 1;
    }

    /** Where the body starts (after the blank line), or -1 when the head is not whole yet. */
    private int headEnd() {
      byte[] bytes = answer.array();
      for (int i = 3; i < answer.position(); i++) {
        if (bytes[i] == '\n' && bytes[i - 1] == '\r' && bytes[i - 2] == '\n') {
          return i + 1;
        }
      }
      return -1;
    }

    private static int contentLength(byte[] bytes, int headEnd) throws IOException {
      for (int line = 0; line < headEnd; ) {
        if (startsWithIgnoringCase(bytes, line, CONTENT_LENGTH)) {
          int value = 0;
          for (int i = line + CONTENT_LENGTH.length; bytes[i] != '\r'; i++) {
            if (bytes[i] >= '0' && bytes[i] <= '9') {
              value = value * 10 + (bytes[i] - '0');
            }
          }
          return value;
        }
        while (bytes[line] != '\n') {
          line++;
        }
        line++;
      }
      throw new IOException("an answer without Content-Length");
    }

    private static boolean startsWithIgnoringCase(byte[] bytes, int at, byte[] prefix) {
      for (int i = 0; i < prefix.length; i++) {
        if (Character.toLowerCase(bytes[at + i]) != prefix[i]) {
          return false;
        }
      }
      return true;
    }

    void close() {
      try {
        channel.close();
      } catch (IOException ignored) {
        // Closing anyway.
      }
    }
  }
}
