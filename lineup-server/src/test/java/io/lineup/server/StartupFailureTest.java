package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lineup.testing.RedisServerExtension;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** A start-up failure the operator can fix is one line and exit code 1, not a stack trace. */
class StartupFailureTest {
  @TempDir Path dataDir;

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  @Test
  void aTakenPortIsRefusedInOneLineWithExitCodeOne() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();
      assertThatThrownBy(() ->
              LineupServer.start(
                      ServerSettings.builder()
                          .host("127.0.0.1")
                          .port(port)
                          .redisUrl(redis.uri())
                          .adminToken(LineupServerExtension.ADMIN_TOKEN)
                          .dataDir(dataDir)
                          .build())
                  .close())
          .isInstanceOf(StartupException.class)
          .hasMessageContaining("port " + port + " (Address already in use)");

      try (MainProcess process =
          MainProcess.start(
              Map.of(
                  "LINEUP_REDIS_URL", redis.uri(),
                  "LINEUP_ADMIN_TOKEN", LineupServerExtension.ADMIN_TOKEN,
                  "LINEUP_DATA_DIR", dataDir.toString()),
              "--port=" + port,
              "--host=127.0.0.1")) {
        assertThat(process.awaitExit(Duration.ofSeconds(60))).isEqualTo(1);
        assertThat(process.lines())
            .singleElement()
            .asString()
            .contains("Lineup could not start")
            .contains("port " + port + " (Address already in use)")
            .contains("LINEUP_PORT");
      }
    }
  }

  @Test
  void anUnreachableRedisIsRefusedInOneLineWithExitCodeOne() throws Exception {
    int closedPort;
    try (ServerSocket probe = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      closedPort = probe.getLocalPort();
    }
    try (MainProcess process =
        MainProcess.start(
            Map.of(
                "LINEUP_REDIS_URL",
                "redis://127.0.0.1:" + closedPort,
                "LINEUP_ADMIN_TOKEN",
                LineupServerExtension.ADMIN_TOKEN,
                "LINEUP_DATA_DIR",
                dataDir.toString()),
            "--port=0")) {
      assertThat(process.awaitExit(Duration.ofSeconds(60))).isEqualTo(1);
      assertThat(process.lines())
          .filteredOn(line -> !line.contains(" WARN "))
          .singleElement()
          .asString()
          .contains("Lineup could not start")
          .contains("127.0.0.1:" + closedPort);
    }
  }
}
