package io.lineup.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lineup.dispatch.egress.CheckedResolver;
import io.lineup.dispatch.egress.EgressAllowList;
import io.lineup.dispatch.egress.EgressPolicy;
import io.lineup.dispatch.egress.EgressRefusedException;
import io.lineup.dispatch.egress.NumericHost;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class EgressClientTest {
  /** Loopback allowed, as the tests' targets are on 127.0.0.1; "rebind.test" is 127.0.0.1. */
  private static final CheckedResolver.HostLookup NAMES =
      host -> {
        if (host.equals("rebind.test")) {
          return List.of(NumericHost.parse("127.0.0.1").orElseThrow());
        }
        throw new UnknownHostException(host);
      };

  private EgressClient client =
      new EgressClient(
          new CheckedResolver(
              new EgressPolicy(EgressAllowList.parse("127.0.0.1"), List.of()), NAMES));

  @AfterEach
  void close() {
    client.close();
  }

  private static EgressClient withPolicy(EgressPolicy policy) {
    return new EgressClient(new CheckedResolver(policy, NAMES));
  }

  private static URI url(SocketTarget target, String path) {
    return URI.create("http://127.0.0.1:" + target.port() + path);
  }

  private TargetResponse get(URI uri, long headMs) throws Exception {
    return client.send(uri, "GET", Map.of(), new byte[0], headMs, 1000, 1024);
  }

  @Test
  void requestsToOneTargetReuseOneKeptAliveConnection() throws Exception {
    try (SocketTarget target = new SocketTarget(head -> SocketTarget.ok("hi"))) {
      for (int i = 0; i < 5; i++) {
        TargetResponse response = get(url(target, "/n" + i), 5000);
        assertThat(response.status()).isEqualTo(200);
        assertThat(new String(response.body(), StandardCharsets.UTF_8)).isEqualTo("hi");
      }
      assertThat(target.heads()).hasSize(5);
      assertThat(target.connections()).isEqualTo(1);
    }
  }

  @Test
  void aRedirectIsTheAnswerAndIsNotFollowed() throws Exception {
    try (SocketTarget target =
        new SocketTarget(head ->
            head.startsWith("GET /start ")
                ? "HTTP/1.1 302 Found\r\nLocation: /elsewhere\r\nContent-Length: 0\r\n\r\n"
                : SocketTarget.ok("followed"))) {
      TargetResponse response = get(url(target, "/start"), 5000);
      assertThat(response.status()).isEqualTo(302);
      assertThat(response.first("location")).isEqualTo("/elsewhere");
      assertThat(target.heads()).hasSize(1);
    }
  }

  @Test
  void theRequestCarriesOnlyItsOwnHeadersBesidesHostAndFraming() throws Exception {
    try (SocketTarget target = new SocketTarget(head -> SocketTarget.ok(""))) {
      client.send(
          url(target, "/p?q=1"),
          "POST",
          Map.of("X-Mine", "yes"),
          "abc".getBytes(StandardCharsets.UTF_8),
          5000,
          1000,
          1024);
      String head = target.heads().get(0).toLowerCase(java.util.Locale.ROOT);
      assertThat(head).startsWith("post /p?q=1 http/1.1\r\n");
      assertThat(head).contains("x-mine: yes", "content-length: 3", "host: 127.0.0.1:");
      assertThat(head).doesNotContain("user-agent", "accept-encoding", "content-type", "cookie");
    }
  }

  @Test
  void noCookieSetByOneAnswerIsSentWithTheNextRequest() throws Exception {
    try (SocketTarget target =
        new SocketTarget(head ->
            "HTTP/1.1 200 OK\r\nSet-Cookie: session=tenant-a; Path=/\r\nContent-Length: 0\r\n\r\n")) {
      get(url(target, "/a"), 5000);
      get(url(target, "/b"), 5000);
      assertThat(target.heads().get(1).toLowerCase(java.util.Locale.ROOT)).doesNotContain("cookie");
    }
  }

  @Test
  void headersLaterThanTheTimeoutEndTheRequestWithADeadline() throws Exception {
    try (SocketTarget target = new SocketTarget(head -> null)) {
      assertThatThrownBy(() -> get(url(target, "/slow"), 300))
          .isInstanceOf(EgressClient.DeadlineException.class)
          .hasMessageContaining("no response headers within 300 ms");
    }
  }

  @Test
  void aBodyThatNeverEndsEndsTheRequestWithADeadlineAfterTheGrace() throws Exception {
    try (SocketTarget target =
        new SocketTarget(head -> "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly some")) {
      assertThatThrownBy(
              () -> client.send(url(target, "/"), "GET", Map.of(), new byte[0], 2000, 300, 1024))
          .isInstanceOf(EgressClient.DeadlineException.class)
          .hasMessageContaining("body");
    }
  }

  @Test
  void aLongBodyIsCutOneByteAfterItsLimit() throws Exception {
    String big = "x".repeat(10_000);
    try (SocketTarget target = new SocketTarget(head -> SocketTarget.ok(big))) {
      TargetResponse response =
          client.send(url(target, "/"), "GET", Map.of(), new byte[0], 5000, 1000, 100);
      assertThat(response.status()).isEqualTo(200);
      assertThat(response.body()).hasSize(101);
    }
  }

  @Test
  void aTargetOnLoopbackIsRefusedWithoutAConnectionWhenLoopbackIsNotAllowed() throws Exception {
    client.close();
    client = withPolicy(new EgressPolicy(EgressAllowList.NONE, List.of()));
    try (SocketTarget target = new SocketTarget(head -> SocketTarget.ok("hi"))) {
      assertThatThrownBy(() -> get(url(target, "/"), 5000))
          .isInstanceOf(EgressRefusedException.class)
          .hasMessage("127.0.0.1 is loopback");
      assertThatThrownBy(() -> get(URI.create("http://2130706433:" + target.port() + "/"), 5000))
          .isInstanceOf(EgressRefusedException.class)
          .hasMessage("127.0.0.1 is loopback");
      assertThat(target.connections()).isZero();
    }
  }

  @Test
  void aNameThatResolvesToLoopbackAtSendTimeIsRefusedAndNothingIsSent() throws Exception {
    client.close();
    client = withPolicy(new EgressPolicy(EgressAllowList.NONE, List.of()));
    try (SocketTarget target = new SocketTarget(head -> SocketTarget.ok("hi"))) {
      assertThatThrownBy(() -> get(URI.create("http://rebind.test:" + target.port() + "/"), 5000))
          .isInstanceOf(EgressRefusedException.class)
          .hasMessage("127.0.0.1 is loopback");
      assertThat(target.connections()).isZero();
    }
  }

  @Test
  void theRedisPortIsRefusedAtConnectTimeEvenWithLoopbackAllowed() throws Exception {
    try (SocketTarget redisLike = new SocketTarget(head -> SocketTarget.ok("+PONG"))) {
      client.close();
      client =
          withPolicy(
              new EgressPolicy(
                  EgressAllowList.parse("127.0.0.1"),
                  List.of(InetSocketAddress.createUnresolved("127.0.0.1", redisLike.port()))));
      assertThatThrownBy(() -> get(url(redisLike, "/"), 5000))
          .isInstanceOf(EgressRefusedException.class)
          .hasMessageContaining("this server's Redis");
      assertThat(redisLike.connections()).isZero();
    }
  }

  @Test
  void interruptingTheSendingThreadAbortsTheRequest() throws Exception {
    try (SocketTarget target = new SocketTarget(head -> null)) {
      AtomicReference<Throwable> thrown = new AtomicReference<>();
      Thread sender =
          Thread.ofVirtual()
              .start(() -> {
                try {
                  get(url(target, "/held"), 60_000);
                } catch (Throwable t) {
                  thrown.set(t);
                }
              });
      await().atMost(Duration.ofSeconds(10)).until(() -> target.heads().size() == 1);
      sender.interrupt();
      sender.join(Duration.ofSeconds(10));
      assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
    }
  }
}
