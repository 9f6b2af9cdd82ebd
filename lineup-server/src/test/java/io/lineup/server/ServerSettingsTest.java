package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Settings come from environment variables and the same as flags, with documented defaults. */
class ServerSettingsTest {

  @Test
  void withNothingSetEveryDefaultApplies() {
    ServerSettings settings = ServerSettings.parse(Map.of(), List.of());
    assertThat(settings.port()).isEqualTo(7700);
    assertThat(settings.host())
        .as("this machine only with the embedded Redis")
        .isEqualTo("127.0.0.1");
    assertThat(settings.redisUrl()).isNull();
    assertThat(settings.embeddedRedis()).isTrue();
    assertThat(settings.adminToken()).isNull();
    assertThat(settings.dataDir()).isEqualTo(Path.of("./lineup-data"));
    assertThat(settings.metricsPublic()).isTrue();
    assertThat(settings.maxPayloadBytes()).isEqualTo(1024 * 1024);
    assertThat(settings.redisTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(settings.shutdownGrace()).isEqualTo(Duration.ofSeconds(10));
    assertThat(settings.logRequests()).isFalse();
  }

  @Test
  void environmentVariablesSetTheServer() {
    ServerSettings settings =
        ServerSettings.parse(
            Map.of(
                "LINEUP_PORT", "8800",
                "LINEUP_REDIS_URL", "redis://10.0.0.5:6379",
                "LINEUP_ADMIN_TOKEN", "a-long-enough-admin-token",
                "LINEUP_DATA_DIR", "/var/lib/lineup",
                "LINEUP_METRICS_PUBLIC", "false"),
            List.of());
    assertThat(settings.port()).isEqualTo(8800);
    assertThat(settings.redisUrl()).isEqualTo("redis://10.0.0.5:6379");
    assertThat(settings.adminToken()).isEqualTo("a-long-enough-admin-token");
    assertThat(settings.dataDir()).isEqualTo(Path.of("/var/lib/lineup"));
    assertThat(settings.metricsPublic()).isFalse();
    assertThat(settings.host()).as("every interface with a Redis URL").isEqualTo("0.0.0.0");
  }

  @Test
  void egressAllowsPublicAddressesOnlyUnlessTheOperatorListsMore() {
    assertThat(ServerSettings.parse(Map.of(), List.of()).egressAllowList().entries()).isEmpty();
    ServerSettings settings =
        ServerSettings.parse(
            Map.of("LINEUP_EGRESS_ALLOW", "127.0.0.1"),
            List.of("--egress-allow", "10.20.0.0/16, billing.internal:8443"));
    assertThat(settings.egressAllowList().toString())
        .isEqualTo("10.20.0.0/16,billing.internal:8443");
    assertThatThrownBy(
            () -> ServerSettings.parse(Map.of("LINEUP_EGRESS_ALLOW", "10.0.0.0/40"), List.of()))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("LINEUP_EGRESS_ALLOW (--egress-allow)")
        .hasMessageContaining("10.0.0.0/40");
  }

  @Test
  void aGivenHostWinsInEitherRedisMode() {
    assertThat(ServerSettings.parse(Map.of("LINEUP_HOST", "0.0.0.0"), List.of()).host())
        .isEqualTo("0.0.0.0");
    assertThat(
            ServerSettings.parse(
                    Map.of("LINEUP_REDIS_URL", "redis://10.0.0.5:6379"), List.of("--host=::1"))
                .host())
        .isEqualTo("::1");
  }

  @Test
  void flagsWinOverEnvironmentVariablesInBothSpellings() {
    ServerSettings settings =
        ServerSettings.parse(
            Map.of("LINEUP_PORT", "8800"),
            List.of("--port=9900", "--redis-url", "redis://127.0.0.1:7000", "--log-requests=yes"));
    assertThat(settings.port()).isEqualTo(9900);
    assertThat(settings.redisUrl()).isEqualTo("redis://127.0.0.1:7000");
    assertThat(settings.logRequests()).isTrue();
  }

  @Test
  void aFlagGivenTwiceKeepsItsLastValueAndAnyTextIsAValue() {
    ServerSettings settings =
        ServerSettings.parse(
            Map.of(),
            List.of(
                "--port=8800",
                "--port",
                "9900",
                "--data-dir",
                "@lineup-data",
                "--admin-token",
                "-starts-with-a-dash",
                "--redis-url=redis://10.0.0.5:6379/0?timeout=5s"));
    assertThat(settings.port()).isEqualTo(9900);
    assertThat(settings.dataDir()).as("not a file of arguments").isEqualTo(Path.of("@lineup-data"));
    assertThat(settings.adminToken()).isEqualTo("-starts-with-a-dash");
    assertThat(settings.redisUrl()).isEqualTo("redis://10.0.0.5:6379/0?timeout=5s");
    assertThatThrownBy(() -> ServerSettings.parse(Map.of(), List.of("--colour", "red")))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageStartingWith("unknown flag --colour; known flags: --host, --port, ");
    assertThatThrownBy(() -> ServerSettings.parse(Map.of(), List.of("7700")))
        .hasMessageStartingWith("unknown flag 7700; ");
    assertThatThrownBy(() -> ServerSettings.parse(Map.of(), List.of("--port")))
        .hasMessage("--port needs a value, e.g. --port=...");
  }

  @Test
  void theArchiveIsOffUnlessAJdbcUrlIsGivenAndItsPasswordIsNeverPrinted() {
    assertThat(ServerSettings.parse(Map.of(), List.of()).archiving()).isFalse();

    ServerSettings settings =
        ServerSettings.parse(
            Map.of(
                "LINEUP_ARCHIVE_JDBC_URL", "jdbc:postgresql://db:5432/lineup?ssl=true",
                "LINEUP_ARCHIVE_USER", "lineup",
                "LINEUP_ARCHIVE_PASSWORD", "s3cret-password",
                "LINEUP_ARCHIVE_RETENTION_MS", "86400000"),
            List.of("--archive-outbox-max=5000", "--archive-batch-size", "200"));

    assertThat(settings.archiving()).isTrue();
    assertThat(settings.archive().user()).isEqualTo("lineup");
    assertThat(settings.archive().password()).isEqualTo("s3cret-password");
    assertThat(settings.archive().retention()).isEqualTo(Duration.ofDays(1));
    assertThat(settings.archive().outboxMax()).isEqualTo(5000);
    assertThat(settings.archive().batchSize()).isEqualTo(200);
    assertThat(settings.archive().retentionBatchSize()).isEqualTo(1000);
    assertThat(settings.toString()).doesNotContain("s3cret-password").doesNotContain("ssl=true");
    assertThat(settings.archive().safeUrl()).isEqualTo("jdbc:postgresql://db:5432/lineup");
  }

  @Test
  void aBadArchiveSettingIsRefusedNamingIt() {
    assertThatThrownBy(() ->
            ServerSettings.parse(Map.of("LINEUP_ARCHIVE_JDBC_URL", "jdbc:oracle:x"), List.of()))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("LINEUP_ARCHIVE_JDBC_URL");
    Map<String, String> url = Map.of("LINEUP_ARCHIVE_JDBC_URL", "jdbc:mariadb://db/lineup");
    assertThatThrownBy(() -> ServerSettings.parse(url, List.of("--archive-retention-ms=10")))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("LINEUP_ARCHIVE_RETENTION_MS");
    assertThatThrownBy(() -> ServerSettings.parse(url, List.of("--archive-batch-size=0")))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("LINEUP_ARCHIVE_BATCH_SIZE");
    assertThatThrownBy(() -> ServerSettings.parse(url, List.of("--archive-outbox-max=lots")))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("LINEUP_ARCHIVE_OUTBOX_MAX");
  }

  @Test
  void aBadValueIsRefusedNamingTheSetting() {
    assertThatThrownBy(() -> ServerSettings.parse(Map.of("LINEUP_PORT", "seventy"), List.of()))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("LINEUP_PORT");
    assertThatThrownBy(() -> ServerSettings.parse(Map.of(), List.of("--port=70000")))
        .hasMessageContaining("--port");
    assertThatThrownBy(() -> ServerSettings.parse(Map.of(), List.of("--colour=red")))
        .hasMessageContaining("unknown flag --colour");
    assertThatThrownBy(() -> ServerSettings.parse(Map.of(), List.of("--port")))
        .hasMessageContaining("needs a value");
    assertThatThrownBy(() -> ServerSettings.parse(Map.of("LINEUP_ADMIN_TOKEN", "short"), List.of()))
        .hasMessageContaining("at least 16");
    assertThatThrownBy(
            () -> ServerSettings.parse(Map.of("LINEUP_METRICS_PUBLIC", "maybe"), List.of()))
        .hasMessageContaining("true or false");
  }

  @Test
  void aBuilderStartsFromTheSameDefaultsAsTheEnvironmentAndChangesOnlyWhatItIsTold() {
    assertThat(ServerSettings.builder().build())
        .isEqualTo(ServerSettings.parse(Map.of(), List.of()))
        .isEqualTo(ServerSettings.defaults());

    ServerSettings settings =
        ServerSettings.builder()
            .host("127.0.0.1")
            .port(0)
            .redisUrl("redis://10.0.0.5:6379")
            .adminToken("a-long-enough-admin-token")
            .dataDir(Path.of("/var/lib/lineup"))
            .metricsPublic(false)
            .maxPayloadBytes(4096)
            .redisTimeout(Duration.ofMillis(250))
            .shutdownGrace(Duration.ZERO)
            .logRequests(true)
            .egressAllow("10.0.0.0/8")
            .build();
    assertThat(settings)
        .isEqualTo(
            new ServerSettings(
                "127.0.0.1",
                0,
                "redis://10.0.0.5:6379",
                "a-long-enough-admin-token",
                Path.of("/var/lib/lineup"),
                false,
                4096,
                Duration.ofMillis(250),
                Duration.ZERO,
                true,
                null,
                "10.0.0.0/8"));

    ServerSettings changed = settings.mutate().port(8800).redisUrl(null).build();
    assertThat(changed.port()).isEqualTo(8800);
    assertThat(changed.embeddedRedis()).isTrue();
    assertThat(changed.mutate().port(0).redisUrl("redis://10.0.0.5:6379").build())
        .as("everything else kept")
        .isEqualTo(settings);
  }

  @Test
  void aBuilderRefusesAValueOutOfBoundsNamingTheSetting() {
    assertThatThrownBy(() -> ServerSettings.builder().port(-1).build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("LINEUP_PORT (--port) must be between 0 and 65535, got -1");
    assertThatThrownBy(() -> ServerSettings.builder().host(" ").build())
        .hasMessageContaining("LINEUP_HOST");
    assertThatThrownBy(() -> ServerSettings.builder().adminToken("short").build())
        .hasMessageContaining("at least 16");
    assertThatThrownBy(() -> ServerSettings.builder().dataDir(null).build())
        .hasMessageContaining("LINEUP_DATA_DIR");
    assertThatThrownBy(() -> ServerSettings.builder().maxPayloadBytes(0).build())
        .hasMessageContaining("LINEUP_MAX_PAYLOAD_BYTES");
    assertThatThrownBy(() -> ServerSettings.builder().redisTimeout(Duration.ofMillis(99)).build())
        .hasMessageContaining("LINEUP_REDIS_TIMEOUT_MS (--redis-timeout-ms) must be between 100");
    assertThatThrownBy(() ->
            ServerSettings.builder().shutdownGrace(Duration.ofSeconds(Long.MAX_VALUE)).build())
        .hasMessageContaining("LINEUP_SHUTDOWN_GRACE_MS");
    assertThatThrownBy(() -> ServerSettings.parse(Map.of(), List.of("--port=99999999999")))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("--port");
  }
}
