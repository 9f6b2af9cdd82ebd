package io.lineup.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Servers for tests: on 127.0.0.1, a free port, a temporary data folder, a known admin token. */
final class TestServers {
  static final String ADMIN_TOKEN = "test-admin-token-0123456789";

  private TestServers() {}

  /** Settings for a server on this Redis. */
  static ServerSettings settings(String redisUri) {
    return ServerSettings.defaults()
        .withHost("127.0.0.1")
        .withPort(0)
        .withRedisUrl(redisUri)
        .withAdminToken(ADMIN_TOKEN)
        .withDataDir(temporaryFolder());
  }

  /** A started server on this Redis. */
  static LineupServer start(String redisUri) {
    return LineupServer.start(settings(redisUri));
  }

  /** The admin's API client for a server. */
  static Api adminApi(LineupServer server) {
    return new Api(server.baseUrl(), server.adminToken());
  }

  static Path temporaryFolder() {
    try {
      return Files.createTempDirectory("lineup-server-test-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
