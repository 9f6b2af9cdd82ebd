package io.lineup.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lineup.testing.RedisServerExtension;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Connections: reused between calls, timeouts, and a server that is not there. */
class ConnectionTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  static TestServer server;

  @BeforeAll
  static void start() {
    server = TestServer.start(redis.uri());
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void manyCallsInARowShareOneConnection() throws Exception {
    int port = Integer.parseInt(server.url().substring(server.url().lastIndexOf(':') + 1));
    try (CountingForwarder forwarder = new CountingForwarder(port);
        LineupClient client =
            LineupClient.connect("http://127.0.0.1:" + forwarder.port(), TestServer.ADMIN_TOKEN)) {
      QueueName q = QueueName.of("conn", RedisServerExtension.uniqueName("reuse"));
      for (int i = 0; i < 50; i++) {
        client.publish(q, NewJob.ofJson(Integer.toString(i)));
      }
      assertThat(client.stats(q).counts().ready()).isEqualTo(50);
      assertThat(forwarder.connections()).isEqualTo(1);
    }
  }

  @Test
  void aServerThatIsNotThereIsUnreachableWithStatusZero() throws IOException {
    int port;
    try (ServerSocket probe = new ServerSocket(0)) {
      port = probe.getLocalPort();
    }
    try (LineupClient client = LineupClient.connect("http://127.0.0.1:" + port, "t")) {
      assertThatThrownBy(client::queues)
          .isInstanceOfSatisfying(
              ServerUnreachableException.class,
              e -> {
                assertThat(e.status()).isZero();
                assertThat(e.getMessage()).contains("cannot connect to http://127.0.0.1:" + port);
              });
    }
  }

  @Test
  void aServerThatDoesNotAnswerTimesOutAfterTheRequestTimeout() throws IOException {
    List<Socket> held = new CopyOnWriteArrayList<>();
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread.ofVirtual()
          .start(() -> {
            try {
              while (true) {
                held.add(silent.accept());
              }
            } catch (IOException closed) {
              // the test is over
            }
          });
      try (LineupClient client =
          LineupClient.builder("http://127.0.0.1:" + silent.getLocalPort())
              .requestTimeout(Duration.ofMillis(300))
              .build()) {
        long start = System.nanoTime();
        assertThatThrownBy(client::queues)
            .isInstanceOf(ServerUnreachableException.class)
            .hasMessageContaining("no answer");
        assertThat(Duration.ofNanos(System.nanoTime() - start))
            // The silent server never answers: the bound is the 300 ms timeout plus a busy
            // machine's delays (issue 49).
            .isBetween(Duration.ofMillis(250), Duration.ofSeconds(30));
      }
    } finally {
      for (Socket socket : held) {
        socket.close();
      }
    }
  }

  @Test
  void anAddressThatIsNotHttpIsRefusedAtOnce() {
    assertThatThrownBy(() -> LineupClient.connect("127.0.0.1:7700", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("http://");
  }

  /** A TCP forwarder to the server that counts the connections clients open through it. */
  static final class CountingForwarder implements AutoCloseable {
    private final ServerSocket listener;
    private final AtomicInteger connections = new AtomicInteger();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    CountingForwarder(int targetPort) throws IOException {
      listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      Thread.ofVirtual()
          .start(() -> {
            try {
              while (true) {
                Socket client = listener.accept();
                connections.incrementAndGet();
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                sockets.add(client);
                sockets.add(upstream);
                pipe(client, upstream);
                pipe(upstream, client);
              }
            } catch (IOException closed) {
              // the forwarder is closed
            }
          });
    }

    private static void pipe(Socket from, Socket to) {
      Thread.ofVirtual()
          .start(() -> {
            try (InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream()) {
              in.transferTo(out);
            } catch (IOException ended) {
              // either side closed
            }
          });
    }

    int port() {
      return listener.getLocalPort();
    }

    int connections() {
      return connections.get();
    }

    @Override
    public void close() throws IOException {
      listener.close();
      for (Socket socket : sockets) {
        socket.close();
      }
    }
  }
}
