package io.lineup.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * One keep-alive HTTP/1.1 connection to the server under test, written by hand so that the load
 * generator costs little CPU next to the server it measures on the same two cores (the JDK's
 * HttpClient spent more CPU per request than the server did). It speaks just what the bench needs:
 * GET, DELETE, and POST or PUT with a JSON body; answers with Content-Length or chunked bodies.
 */
final class Http11Connection implements AutoCloseable {
  /** An answer: status and body text. */
  record Answer(int status, String body) {}

  private final Socket socket;
  private final OutputStream out;
  private final InputStream in;
  private final String hostHeader;
  private boolean open = true;
  private long lastUsedNanos = System.nanoTime();

  Http11Connection(String host, int port, int timeoutMillis) throws IOException {
    socket = new Socket();
    socket.setTcpNoDelay(true);
    socket.connect(new InetSocketAddress(host, port), timeoutMillis);
    socket.setSoTimeout(timeoutMillis);
    out = new BufferedOutputStream(socket.getOutputStream(), 8192);
    in = new BufferedInputStream(socket.getInputStream(), 8192);
    hostHeader = host + ":" + port;
  }

  boolean isOpen() {
    return open && !socket.isClosed();
  }

  /** {@link System#nanoTime()} when the last answer was read (or the connection opened). */
  long lastUsedNanos() {
    return lastUsedNanos;
  }

  /** Sends one POST and reads its answer. */
  Answer post(String path, String authorization, String body) throws IOException {
    return send("POST", path, authorization, body);
  }

  /**
   * Sends one request and reads its answer.
   *
   * @param body the JSON body, or null for none (a GET or DELETE)
   */
  Answer send(String method, String path, String authorization, String body) throws IOException {
    out.write(request(method, path, hostHeader, authorization, body));
    out.flush();
    String statusLine = line();
    int status = Integer.parseInt(statusLine.substring(9, 12));
    int length = -1;
    boolean chunked = false;
    String headerLine;
    while (!(headerLine = line()).isEmpty()) {
      String lower = headerLine.toLowerCase(Locale.ROOT);
      if (lower.startsWith("content-length:")) {
        length = Integer.parseInt(lower.substring(15).trim());
      } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
        chunked = true;
      } else if (lower.startsWith("connection:") && lower.contains("close")) {
        open = false;
      }
    }
    byte[] answer;
    if (chunked) {
      ByteArrayOutputStream collected = new ByteArrayOutputStream();
      int size;
      while ((size = Integer.parseInt(line().split(";")[0].trim(), 16)) > 0) {
        collected.write(in.readNBytes(size));
        line();
      }
      line();
      answer = collected.toByteArray();
    } else {
      answer = length > 0 ? in.readNBytes(length) : new byte[0];
    }
    lastUsedNanos = System.nanoTime();
    return new Answer(status, new String(answer, StandardCharsets.UTF_8));
  }

  /**
   * One whole request, head and body, as the bench sends it.
   *
   * @param hostHeader the {@code Host} header's value, host:port
   * @param body the JSON body, or null for none
   */
  static byte[] request(
      String method, String path, String hostHeader, String authorization, String body) {
    byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
    String head =
        method
            + " "
            + path
            + " HTTP/1.1\r\nHost: "
            + hostHeader
            + "\r\nAuthorization: "
            + authorization
            + (body == null ? "" : "\r\nContent-Type: application/json")
            + "\r\nContent-Length: "
            + content.length
            + "\r\n\r\n";
    byte[] headBytes = head.getBytes(StandardCharsets.US_ASCII);
    byte[] whole = Arrays.copyOf(headBytes, headBytes.length + content.length);
    System.arraycopy(content, 0, whole, headBytes.length, content.length);
    return whole;
  }

  private String line() throws IOException {
    StringBuilder text = new StringBuilder(64);
    int c;
    while ((c = in.read()) != '\n') {
      if (c == -1) {
        open = false;
        throw new IOException("the server closed the connection");
      }
      if (c != '\r') {
        text.append((char) c);
      }
    }
    return text.toString();
  }

  @Override
  public void close() {
    open = false;
    try {
      socket.close();
    } catch (IOException ignored) {
      // Closing anyway.
    }
  }
}
