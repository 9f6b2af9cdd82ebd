package io.lineup.client;

import io.lineup.server.LineupServer;
import io.lineup.server.ServerSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A real Lineup server for tests of the client, the command line, the examples and the OpenAPI
 * checks: on 127.0.0.1, a free port, a temporary data folder and a known admin token, on the Redis
 * a test's {@code RedisServerExtension} started. Close it after the tests.
 */
public final class TestServer implements AutoCloseable {
  /** The admin token of every test server. */
  public static final String ADMIN_TOKEN = "test-admin-token-0123456789";

  private final LineupServer server;

  private TestServer(LineupServer server) {
    this.server = server;
  }

  /** Starts a server on the Redis at this URI. */
  public static TestServer start(String redisUri) {
    return new TestServer(LineupServer.start(settings(redisUri)));
  }

  /** The one place that builds the settings of a test server. */
  static ServerSettings settings(String redisUri) {
    return ServerSettings.builder()
        .host("127.0.0.1")
        .port(0)
        .redisUrl(redisUri)
        .adminToken(ADMIN_TOKEN)
        .dataDir(temporaryFolder())
        // The dispatch tests' targets are HTTP servers on 127.0.0.1: loopback must be allowed.
        .egressAllow("127.0.0.0/8,::1")
        .build();
  }

  /** {@code http://127.0.0.1:PORT}. */
  public String url() {
    return server.baseUrl();
  }

  /** A client with the admin token. */
  public LineupClient adminClient() {
    return LineupClient.connect(url(), ADMIN_TOKEN);
  }

  /**
   * Registers the namespace (when it is not yet) and issues a token for it.
   *
   * @return the token text
   */
  public String tokenFor(String namespace, int maxPriority, String... scopes) {
    try (LineupClient admin = adminClient()) {
      try {
        admin.admin().createNamespace(namespace);
      } catch (AlreadyExistsException registered) {
        // Several tests share a namespace.
      }
      return admin
          .admin()
          .createToken(namespace, java.util.List.of(scopes), maxPriority, "test")
          .token();
    }
  }

  @Override
  public void close() {
    server.close();
  }

  private static Path temporaryFolder() {
    try {
      return Files.createTempDirectory("lineup-client-test-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
