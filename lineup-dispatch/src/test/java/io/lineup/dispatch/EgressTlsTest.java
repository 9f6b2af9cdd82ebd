package io.lineup.dispatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lineup.dispatch.egress.CheckedResolver;
import io.lineup.dispatch.egress.EgressAllowList;
import io.lineup.dispatch.egress.EgressPolicy;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** https targets: spoken to over TLS, their certificate checked against the trust store. */
class EgressTlsTest {
  private static final String PASSWORD = "test-only-password";
  private static final CheckedResolver LOOPBACK_ALLOWED =
      new CheckedResolver(new EgressPolicy(EgressAllowList.parse("127.0.0.1"), List.of()));

  @TempDir static Path folder;
  static Server target;
  static Path keyStore;
  static final AtomicInteger handled = new AtomicInteger();

  @BeforeAll
  static void start() throws Exception {
    keyStore = folder.resolve("target.p12");
    // A self-signed certificate for 127.0.0.1, made by the JDK's keytool.
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    Process made =
        new ProcessBuilder(
                keytool.toString(),
                "-genkeypair",
                "-alias",
                "target",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=127.0.0.1",
                "-ext",
                "SAN=ip:127.0.0.1",
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                keyStore.toString(),
                "-storepass",
                PASSWORD,
                "-keypass",
                PASSWORD)
            .redirectErrorStream(true)
            .start();
    assertThat(made.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(made.exitValue())
        .as(new String(made.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
        .isZero();
    SslContextFactory.Server tls = new SslContextFactory.Server();
    tls.setKeyStorePath(keyStore.toString());
    tls.setKeyStorePassword(PASSWORD);
    target = new Server();
    ServerConnector connector = new ServerConnector(target, tls);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    target.addConnector(connector);
    target.setHandler(
        new Handler.Abstract() {
          @Override
          public boolean handle(Request request, Response response, Callback callback) {
            handled.incrementAndGet();
            response.setStatus(200);
            response.write(
                true,
                java.nio.ByteBuffer.wrap("secure".getBytes(StandardCharsets.UTF_8)),
                callback);
            return true;
          }
        });
    target.start();
  }

  @AfterAll
  static void stop() throws Exception {
    target.stop();
  }

  private static URI url() {
    return URI.create(
        "https://127.0.0.1:" + ((ServerConnector) target.getConnectors()[0]).getLocalPort() + "/");
  }

  @Test
  void anHttpsTargetWhoseCertificateIsTrustedIsAnsweredOverTls() throws Exception {
    SslContextFactory.Client trusting = new SslContextFactory.Client();
    trusting.setTrustStorePath(keyStore.toString());
    trusting.setTrustStorePassword(PASSWORD);
    trusting.setTrustStoreType("PKCS12");
    try (EgressClient client = new EgressClient(LOOPBACK_ALLOWED, trusting)) {
      TargetResponse response =
          client.send(url(), "GET", Map.of(), new byte[0], 10_000, 1000, 1024);
      assertThat(response.status()).isEqualTo(200);
      assertThat(new String(response.body(), StandardCharsets.UTF_8)).isEqualTo("secure");
    }
  }

  @Test
  void anHttpsTargetWithAnUntrustedCertificateIsNeverSentTheRequest() {
    int before = handled.get();
    try (EgressClient client = new EgressClient(LOOPBACK_ALLOWED)) {
      assertThatThrownBy(() -> client.send(url(), "GET", Map.of(), new byte[0], 10_000, 1000, 1024))
          .isInstanceOf(IOException.class)
          .isNotInstanceOf(EgressClient.DeadlineException.class);
    }
    assertThat(handled.get()).isEqualTo(before);
  }
}
