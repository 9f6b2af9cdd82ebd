package io.lineup.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * HTTP over a plain socket, for what a normal client cannot do: malformed requests, and closing the
 * connection in the middle of a long-poll.
 */
final class RawHttp implements AutoCloseable {
  private final Socket socket;

  private RawHttp(Socket socket) {
    this.socket = socket;
  }

  /** Connects to the server. */
  static RawHttp connect(int port) {
    try {
      Socket socket = new Socket();
      socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
      socket.setSoTimeout(30_000);
      return new RawHttp(socket);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Sends bytes as they are. */
  RawHttp send(String text) {
    try {
      socket.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
      socket.getOutputStream().flush();
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Sends bytes as they are, then closes this side of the connection: the server has every byte
   * and, once it has answered what it reads as requests, closes its side too.
   */
  RawHttp sendAll(String text) {
    send(text);
    try {
      socket.shutdownOutput();
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Every answer until the server closes the connection (or the read times out): answers with a
   * Content-Length are split by it; what is left after the last of them (an answer without one, or
   * one cut short) counts as one more.
   */
  List<String> answersUntilClosed() {
    byte[] all;
    try {
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buffer = new byte[8192];
      try {
        int n;
        while ((n = in.read(buffer)) != -1) {
          out.write(buffer, 0, n);
        }
      } catch (java.net.SocketTimeoutException | java.net.SocketException endedThere) {
        // What arrived is all there is.
      }
      all = out.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<String> answers = new ArrayList<>();
    String rest = new String(all, StandardCharsets.ISO_8859_1);
    int length;
    while ((length = completeLength(rest)) > 0) {
      answers.add(rest.substring(0, length));
      rest = rest.substring(length);
    }
    if (!rest.isEmpty()) {
      answers.add(rest);
    }
    return answers;
  }

  /** A POST with a JSON body and a bearer token, as one write. */
  RawHttp post(String path, String token, String json) {
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    return send(
        "POST "
            + path
            + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
            + token
            + "\r\nContent-Type: application/json\r\nContent-Length: "
            + body.length
            + "\r\n\r\n"
            + new String(body, StandardCharsets.ISO_8859_1));
  }

  /**
   * A POST that declares a JSON body of {@code declaredBytes} and sends none of it, as a client
   * does that has sent its headers and not yet its body; {@code token} null sends no Authorization.
   */
  RawHttp postHeadersOnly(String path, String token, long declaredBytes) {
    return send(
        "POST "
            + path
            + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + (token == null ? "" : "Authorization: Bearer " + token + "\r\n")
            + "Content-Type: application/json\r\nContent-Length: "
            + declaredBytes
            + "\r\n\r\n");
  }

  /** Reads until the server closes the connection or the read times out; returns the text. */
  String readAll() {
    try {
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buffer = new byte[8192];
      int n;
      try {
        while ((n = in.read(buffer)) != -1) {
          out.write(buffer, 0, n);
          if (complete(out.toString(StandardCharsets.ISO_8859_1))) {
            break;
          }
        }
      } catch (java.net.SocketTimeoutException timedOut) {
        // Whatever arrived is the answer.
      }
      return out.toString(StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Reads {@code count} answers in a row (each with a Content-Length, as the API's are), or as many
   * as came before the server closed the connection or the read timed out.
   */
  List<String> answers(int count) {
    List<String> answers = new ArrayList<>();
    try {
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buffer = new byte[8192];
      try {
        while (answers.size() < count) {
          String text = out.toString(StandardCharsets.ISO_8859_1);
          int length = completeLength(text);
          if (length > 0) {
            answers.add(new String(out.toByteArray(), 0, length, StandardCharsets.UTF_8));
            byte[] rest = java.util.Arrays.copyOfRange(out.toByteArray(), length, out.size());
            out.reset();
            out.write(rest);
            continue;
          }
          int n = in.read(buffer);
          if (n == -1) {
            break;
          }
          out.write(buffer, 0, n);
        }
      } catch (java.net.SocketTimeoutException timedOut) {
        // What arrived is all there is.
      }
      return answers;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The length of the first whole answer (with a Content-Length) at the start of text, or 0. */
  private static int completeLength(String text) {
    int headersEnd = text.indexOf("\r\n\r\n");
    if (headersEnd < 0) {
      return 0;
    }
    String headers = text.substring(0, headersEnd).toLowerCase(java.util.Locale.ROOT);
    int at = headers.indexOf("content-length:");
    if (at < 0) {
      return 0;
    }
    int end = headers.indexOf("\r\n", at);
    int length =
        Integer.parseInt(headers.substring(at + 15, end < 0 ? headers.length() : end).trim());
    int whole = headersEnd + 4 + length;
    return text.length() >= whole ? whole : 0;
  }

  /**
   * Whether the server closes the connection within {@code wait}: a read reaches the end of the
   * stream (or the connection is reset) before the wait is over. False when the read times out, the
   * connection still open.
   */
  boolean closedByServerWithin(Duration wait) {
    try {
      int before = socket.getSoTimeout();
      socket.setSoTimeout((int) wait.toMillis());
      try {
        return socket.getInputStream().read() == -1;
      } catch (java.net.SocketTimeoutException stillOpen) {
        return false;
      } catch (java.net.SocketException reset) {
        return true;
      } finally {
        socket.setSoTimeout(before);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Whether a response with a Content-Length has fully arrived. */
  private static boolean complete(String text) {
    int headersEnd = text.indexOf("\r\n\r\n");
    if (headersEnd < 0) {
      return false;
    }
    String headers = text.substring(0, headersEnd).toLowerCase(java.util.Locale.ROOT);
    int at = headers.indexOf("content-length:");
    if (at < 0) {
      return headers.startsWith("http/1.1 204");
    }
    int end = headers.indexOf("\r\n", at);
    long length =
        Long.parseLong(headers.substring(at + 15, end < 0 ? headers.length() : end).trim());
    return text.length() - headersEnd - 4 >= length;
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException ignored) {
      // Closing is all that was asked.
    }
  }
}
