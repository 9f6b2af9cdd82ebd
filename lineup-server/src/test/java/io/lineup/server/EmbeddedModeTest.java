package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lineup.core.Lineup;
import io.lineup.core.LineupOptions;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.QueueName;
import io.lineup.redis.RedisProcess;
import io.lineup.server.auth.AdminToken;
import io.lineup.server.redis.EmbeddedRedis;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Without LINEUP_REDIS_URL the server runs its own Redis, and jobs survive restarts. */
class EmbeddedModeTest {

  static ServerSettings embeddedSettings(Path dataDir) {
    return ServerSettings.builder().host("127.0.0.1").port(0).dataDir(dataDir).build();
  }

  @Test
  void aJobPublishedBeforeARestartIsStillThereAfterIt(@TempDir Path dataDir) throws Exception {
    String token;
    try (LineupServer first = LineupServer.start(embeddedSettings(dataDir))) {
      assertThat(first.embeddedRedisAnnouncement())
          .contains("embedded Redis")
          .contains(dataDir.toAbsolutePath().normalize().resolve("redis").toString())
          .contains("LINEUP_REDIS_URL");
      token = first.adminToken();
      assertThat(token).startsWith(AdminToken.PREFIX);
      assertThat(Files.readString(dataDir.resolve(AdminToken.FILE_NAME)).trim()).isEqualTo(token);
      Reply published =
          Api.adminOf(first)
              .post(
                  "/v1/queues/shop/close-unpaid/jobs",
                  "{\"payload\": {\"order\": 7}, \"id\": \"order-7\", \"delay_ms\": 600000}");
      assertThat(published.status()).isEqualTo(201);
    }

    try (LineupServer second = LineupServer.start(embeddedSettings(dataDir))) {
      assertThat(second.adminToken()).as("the generated token is kept").isEqualTo(token);
      Reply job = Api.adminOf(second).get("/v1/queues/shop/close-unpaid/jobs/order-7");
      assertThat(job.status()).isEqualTo(200);
      assertThat(job.field("state")).isEqualTo("DELAYED");
      assertThat(job.json().get("payload").get("order").asInt()).isEqualTo(7);
    }
  }

  @Test
  void aSecondServerOnTheSameDataFolderStopsBeforeTouchingItAndTheFirstKeepsServing(
      @TempDir Path dataDir) throws Exception {
    Path pidFile = dataDir.resolve(EmbeddedRedis.FOLDER).resolve(EmbeddedRedis.PID_FILE);
    try (LineupServer first = LineupServer.start(embeddedSettings(dataDir))) {
      String redisPid = Files.readString(pidFile).trim();

      assertThatThrownBy(() -> LineupServer.start(embeddedSettings(dataDir)).close())
          .as("a second server in the same process")
          .isInstanceOf(StartupException.class)
          .hasMessageContaining("is in use by another Lineup server");

      try (MainProcess second =
          MainProcess.start(
              Map.of("LINEUP_DATA_DIR", dataDir.toString()), "--port=0", "--host=127.0.0.1")) {
        assertThat(second.awaitExit(Duration.ofSeconds(60))).isEqualTo(1);
        assertThat(second.lines())
            .as("one line that says why")
            .singleElement()
            .asString()
            .contains(dataDir.toAbsolutePath().normalize().toString())
            .contains("in use by another Lineup server (pid " + ProcessHandle.current().pid());
      }

      assertThat(Files.readString(pidFile).trim()).as("its Redis untouched").isEqualTo(redisPid);
      assertThat(ProcessHandle.of(Long.parseLong(redisPid)).map(ProcessHandle::isAlive))
          .contains(true);
      assertThat(Api.adminOf(first).get("/ready").status()).isEqualTo(200);
    }
    try (LineupServer again = LineupServer.start(embeddedSettings(dataDir))) {
      assertThat(again.port()).as("the folder is free once the first has stopped").isPositive();
    }
  }

  @Test
  void aRedisLeftRunningByAKilledServerIsStoppedAndItsJobsKept(@TempDir Path dataDir) {
    Path redisFolder = dataDir.resolve(EmbeddedRedis.FOLDER).toAbsolutePath();
    // What a killed server leaves: its redis-server still running on the data folder.
    RedisProcess leftover =
        RedisProcess.builder()
            .dataDir(redisFolder)
            .appendOnly(true)
            .setting("pidfile", redisFolder.resolve(EmbeddedRedis.PID_FILE).toString())
            .build()
            .start();
    try {
      try (Lineup lineup = Lineup.connect(LineupOptions.builder(leftover.uri()).build())) {
        lineup.publish(QueueName.of("shop", "orphaned"), NewJob.ofText("{\"n\":1}").id("kept"));
      }

      try (LineupServer server = LineupServer.start(embeddedSettings(dataDir))) {
        assertThat(leftover.isRunning()).as("the left-over Redis was stopped").isFalse();
        Reply job = Api.adminOf(server).get("/v1/queues/shop/orphaned/jobs/kept");
        assertThat(job.status()).isEqualTo(200);
        assertThat(job.json().get("payload").get("n").asInt()).isEqualTo(1);
      }
    } finally {
      leftover.close();
    }
  }
}
