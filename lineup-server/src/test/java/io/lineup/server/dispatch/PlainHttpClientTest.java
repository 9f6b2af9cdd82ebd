package io.lineup.server.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The dispatcher's HTTP/1.1 client against a target written byte by byte over real TCP: framing,
 * limits, deadlines and the reuse of kept-alive connections.
 */
class PlainHttpClientTest {
  private static final int LIMIT = 64;

  private final PlainHttpClient client = new PlainHttpClient();
  private ScriptedTarget target;

  @AfterEach
  void close() throws IOException {
    client.close();
    if (target != null) {
      target.close();
    }
  }

  @Test
  void aPostIsSentWithHostLengthAndHeadersAndItsAnswerReadByContentLength() throws Exception {
    target =
        ScriptedTarget.answering((request, n) -> answer(201, "X-One: 1\r\nX-One: 2\r\n", "made"));

    TargetResponse response = send("/orders?id=7", "POST", Map.of("X-Trace", "t1"), "{\"a\":1}");

    assertThat(response.status()).isEqualTo(201);
    assertThat(new String(response.body(), StandardCharsets.UTF_8)).isEqualTo("made");
    assertThat(response.headers().get("x-one")).containsExactly("1", "2");
    String sent = target.requests().get(0);
    assertThat(sent).startsWith("POST /orders?id=7 HTTP/1.1\r\n");
    assertThat(sent).contains("Host: 127.0.0.1:" + target.port() + "\r\n");
    assertThat(sent).contains("X-Trace: t1\r\n").contains("Content-Length: 7\r\n");
    assertThat(sent).endsWith("\r\n\r\n{\"a\":1}");
  }

  @Test
  void aKeptAliveConnectionCarriesTheNextRequest() throws Exception {
    target = ScriptedTarget.answering((request, n) -> answer(200, "", "ok"));

    for (int i = 0; i < 3; i++) {
      assertThat(send("/", "POST", Map.of(), "").status()).isEqualTo(200);
    }

    assertThat(target.connections()).isEqualTo(1);
    assertThat(target.requests()).hasSize(3).allMatch(r -> r.contains("Content-Length: 0\r\n"));
  }

  @Test
  void aChunkedBodyWithExtensionsAndTrailersIsJoined() throws Exception {
    target =
        ScriptedTarget.answering((request, n) ->
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5;name=x\r\nhello\r\n1\r\n \r\n5\r\nworld\r\n0\r\nX-Sum: 1\r\n\r\n");

    TargetResponse first = send("/", "GET", Map.of(), "");
    TargetResponse second = send("/", "GET", Map.of(), "");

    assertThat(new String(first.body(), StandardCharsets.UTF_8)).isEqualTo("hello world");
    assertThat(second.status()).isEqualTo(200);
    assertThat(target.connections()).as("read to its end, so kept").isEqualTo(1);
  }

  @Test
  void aBodyWithoutLengthIsReadToTheConnectionsEndAndTheConnectionIsNotKept() throws Exception {
    target = ScriptedTarget.closingAfter((request, n) -> "HTTP/1.1 200 OK\r\n\r\nuntil the end");

    TargetResponse first = send("/", "GET", Map.of(), "");
    send("/", "GET", Map.of(), "");

    assertThat(new String(first.body(), StandardCharsets.UTF_8)).isEqualTo("until the end");
    assertThat(target.connections()).isEqualTo(2);
  }

  @Test
  void aBodyOverTheLimitIsCutOneByteAfterItAndItsConnectionDropped() throws Exception {
    String big = "x".repeat(LIMIT * 4);
    target = ScriptedTarget.answering((request, n) -> answer(200, "", big));

    TargetResponse first = send("/", "GET", Map.of(), "");
    send("/", "GET", Map.of(), "");

    assertThat(first.body()).hasSize(LIMIT + 1);
    assertThat(target.connections()).isEqualTo(2);
  }

  @Test
  void interimAnswersAreSkippedAndA204HasNoBody() throws Exception {
    target =
        ScriptedTarget.answering((request, n) ->
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\nX-Done: yes\r\n\r\n");

    TargetResponse response = send("/", "DELETE", Map.of(), "");
    send("/", "DELETE", Map.of(), "");

    assertThat(response.status()).isEqualTo(204);
    assertThat(response.first("x-done")).isEqualTo("yes");
    assertThat(response.body()).isEmpty();
    assertThat(target.connections()).isEqualTo(1);
  }

  @Test
  void anAnswerToHeadHasNoBodyWhateverItsLengthSays() throws Exception {
    target =
        ScriptedTarget.answering((request, n) -> "HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n");

    TargetResponse response = send("/", "HEAD", Map.of(), "");

    assertThat(response.body()).isEmpty();
    assertThat(send("/", "HEAD", Map.of(), "").status()).isEqualTo(200);
    assertThat(target.connections()).isEqualTo(1);
  }

  @Test
  void aConnectionTheTargetClosedWhileIdleIsReplacedWithoutFailingTheRequest() throws Exception {
    // The target answers the first request of each connection, then closes it without answering
    // the next: the client's kept connection is stale when it is used again.
    target = ScriptedTarget.answering((request, n) -> n == 0 ? answer(200, "", "first") : null);

    send("/", "POST", Map.of(), "one");
    TargetResponse again = send("/", "POST", Map.of(), "two");

    assertThat(again.status()).isEqualTo(200);
    assertThat(target.connections()).isEqualTo(2);
  }

  @Test
  void aConnectionIdleForTheReuseLimitIsNotReusedAndIsClosedByTheSweep() throws Exception {
    target = ScriptedTarget.answering((request, n) -> answer(200, "", "ok"));
    try (PlainHttpClient brief = new PlainHttpClient(100)) {
      get(brief, 5_000, 6_000);

      await()
          .atMost(Duration.ofSeconds(5))
          .untilAsserted(() -> {
            brief.closeStale();
            assertThat(target.ended()).as("the idle connection was closed").isEqualTo(1);
          });
      get(brief, 5_000, 6_000);

      assertThat(target.connections()).isEqualTo(2);
    }
  }

  @Test
  void anAnswerLaterThanTheHeadDeadlineIsATimeout() throws Exception {
    target = ScriptedTarget.answering((request, n) -> null); // never answers, keeps the connection

    assertThatThrownBy(() -> get(client, 200, 1_200))
        .isInstanceOf(PlainHttpClient.DeadlineException.class);
  }

  @Test
  void aBodyThatStopsComingIsATimeoutAfterTheBodyDeadline() throws Exception {
    target =
        ScriptedTarget.answering(
            (request, n) -> "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc");

    assertThatThrownBy(() -> get(client, 2_000, 300))
        .isInstanceOf(PlainHttpClient.DeadlineException.class);
  }

  @Test
  void aTargetThatIsNotListeningIsAConnectionErrorNotATimeout() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }

    assertThatThrownBy(() ->
            client.send(
                URI.create("http://127.0.0.1:" + port + "/"),
                "GET",
                Map.of(),
                new byte[0],
                System.nanoTime() + 2_000_000_000L,
                System.nanoTime() + 3_000_000_000L,
                LIMIT))
        .isInstanceOf(IOException.class)
        .isNotInstanceOf(PlainHttpClient.DeadlineException.class);
  }

  @Test
  void itTakesPlainHttpReachedDirectlyAndLeavesTlsAndProxiedTargetsToTheJdkClient() {
    URI plain = URI.create("http://upstream.example:8080/render");
    ProxySelector direct = selector(Proxy.NO_PROXY);
    ProxySelector proxied =
        selector(new Proxy(Proxy.Type.HTTP, InetSocketAddress.createUnresolved("proxy", 3128)));

    assertThat(PlainHttpClient.takes(plain, null)).isTrue();
    assertThat(PlainHttpClient.takes(plain, direct)).isTrue();
    assertThat(PlainHttpClient.takes(plain, proxied)).isFalse();
    assertThat(PlainHttpClient.takes(URI.create("https://upstream.example/render"), direct))
        .isFalse();
  }

  private static ProxySelector selector(Proxy proxy) {
    return new ProxySelector() {
      @Override
      public List<Proxy> select(URI uri) {
        return List.of(proxy);
      }

      @Override
      public void connectFailed(URI uri, SocketAddress address, IOException e) {}
    };
  }

  @Test
  void anAnswerThatIsNotHttpIsAnError() throws Exception {
    target = ScriptedTarget.answering((request, n) -> "SSH-2.0-OpenSSH\r\n\r\n");

    assertThatThrownBy(() -> send("/", "GET", Map.of(), ""))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("not an HTTP/1.x answer");
  }

  @Test
  void aHeadOverItsLimitIsAnError() throws Exception {
    String huge = "X-Big: " + "y".repeat(PlainHttpClient.MAX_HEAD_BYTES) + "\r\n";
    target = ScriptedTarget.answering((request, n) -> answer(200, huge, ""));

    assertThatThrownBy(() -> send("/", "GET", Map.of(), ""))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("over " + PlainHttpClient.MAX_HEAD_BYTES + " bytes");
  }

  @Test
  void aChunkSizeLineOverItsLimitIsAnErrorThatSaysSo() throws Exception {
    target =
        ScriptedTarget.answering((request, n) ->
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;" + "x".repeat(2000) + "\r\n");

    assertThatThrownBy(() -> send("/", "GET", Map.of(), ""))
        .isInstanceOf(IOException.class)
        .hasMessage("a chunk size line is over 1024 bytes");
  }

  private TargetResponse send(String path, String method, Map<String, String> headers, String body)
      throws Exception {
    long now = System.nanoTime();
    return client.send(
        target.uri(path),
        method,
        headers,
        body.getBytes(StandardCharsets.UTF_8),
        now + 5_000_000_000L,
        now + 6_000_000_000L,
        LIMIT);
  }

  /** A GET of / by {@code by}, its head due within headMs from now and its body within bodyMs. */
  private TargetResponse get(PlainHttpClient by, long headMs, long bodyMs) throws Exception {
    long now = System.nanoTime();
    return by.send(
        target.uri("/"),
        "GET",
        Map.of(),
        new byte[0],
        now + headMs * 1_000_000L,
        now + bodyMs * 1_000_000L,
        LIMIT);
  }

  private static String answer(int status, String headers, String body) {
    return "HTTP/1.1 "
        + status
        + " X\r\n"
        + headers
        + "Content-Length: "
        + body.length()
        + "\r\n\r\n"
        + body;
  }

  /**
   * A target on a real socket that reads each request (head and {@code Content-Length} body) and
   * writes the text its script gives for it (the script gets the request and its number on the
   * connection); a null answer closes the connection without answering, or, for a target that never
   * answers, keeps it open.
   */
  private static final class ScriptedTarget implements AutoCloseable {
    private final ServerSocket server;
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger ended = new AtomicInteger();
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final List<Socket> open = new CopyOnWriteArrayList<>();

    private ScriptedTarget(BiFunction<String, Integer, String> script, boolean closeAfter)
        throws IOException {
      server = new ServerSocket(0);
      Thread.ofVirtual()
          .start(() -> {
            while (!server.isClosed()) {
              try {
                Socket socket = server.accept();
                connections.incrementAndGet();
                open.add(socket);
                Thread.ofVirtual().start(() -> serve(socket, script, closeAfter));
              } catch (IOException closed) {
                return;
              }
            }
          });
    }

    static ScriptedTarget answering(BiFunction<String, Integer, String> script) throws IOException {
      return new ScriptedTarget(script, false);
    }

    static ScriptedTarget closingAfter(BiFunction<String, Integer, String> script)
        throws IOException {
      return new ScriptedTarget(script, true);
    }

    private void serve(Socket socket, BiFunction<String, Integer, String> script, boolean close) {
      try (socket) {
        InputStream in = socket.getInputStream();
        OutputStream out = socket.getOutputStream();
        for (int n = 0; ; n++) {
          String request = readRequest(in);
          if (request == null) {
            ended.incrementAndGet(); // the client closed the connection
            return;
          }
          requests.add(request);
          String answer = script.apply(request, n);
          if (answer == null) {
            if (n > 0) {
              return; // closes without answering
            }
            in.readAllBytes(); // never answers; waits for the client to go
            return;
          }
          out.write(answer.getBytes(StandardCharsets.ISO_8859_1));
          out.flush();
          if (close) {
            return;
          }
        }
      } catch (IOException gone) {
        // The client went away.
      }
    }

    private static String readRequest(InputStream in) throws IOException {
      ByteArrayOutputStream head = new ByteArrayOutputStream();
      int b;
      while ((b = in.read()) >= 0) {
        head.write(b);
        String text = head.toString(StandardCharsets.ISO_8859_1);
        if (text.endsWith("\r\n\r\n")) {
          int length = 0;
          for (String line : text.split("\r\n")) {
            if (line.toLowerCase().startsWith("content-length:")) {
              length = Integer.parseInt(line.substring(15).trim());
            }
          }
          return text + new String(in.readNBytes(length), StandardCharsets.ISO_8859_1);
        }
      }
      return null;
    }

    int port() {
      return server.getLocalPort();
    }

    URI uri(String path) {
      return URI.create("http://127.0.0.1:" + port() + path);
    }

    int connections() {
      return connections.get();
    }

    /** Connections the client closed. */
    int ended() {
      return ended.get();
    }

    List<String> requests() {
      return requests;
    }

    @Override
    public void close() throws IOException {
      server.close();
      for (Socket socket : open) {
        socket.close();
      }
    }
  }
}
