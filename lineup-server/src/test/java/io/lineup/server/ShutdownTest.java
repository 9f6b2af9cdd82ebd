package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lineup.testing.BusyRedis;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** A shutdown ends long-polls without taking jobs, then stops accepting and lets go of Redis. */
class ShutdownTest {
  @TempDir Path dataDir;

  @RegisterExtension static LineupServerExtension servers = LineupServerExtension.onItsOwnRedis();

  @Test
  void closingTheServerAnswersWaitingLongPollsWith204AndRefusesNewConnections() throws Exception {
    LineupServer server = servers.startAnother();
    Api api = Api.adminOf(server);
    CompletableFuture<Reply> waiting = aLongPollWaitingOn(api, "/v1/queues/stop/q/leases");

    server.close();

    Reply reply = waiting.get(10, TimeUnit.SECONDS);
    assertThat(reply.status()).isEqualTo(204);
    assertThat(RedisInfo.blockedClients(servers.redisProcess())).isZero();
    assertThatThrownBy(() -> api.get("/health"))
        .as("nothing listens any more")
        .hasCauseInstanceOf(java.net.ConnectException.class);
    server.close();
  }

  @Test
  void aJobPublishedAfterTheShutdownOfAWaitingServerIsStillThereForTheNextConsumer() {
    LineupServer server = servers.startAnother();
    Api api = Api.adminOf(server);
    CompletableFuture<Reply> waiting = aLongPollWaitingOn(api, "/v1/queues/stop/kept/leases");
    server.close();
    assertThat(waiting.join().status()).isEqualTo(204);

    try (LineupServer next = servers.startAnother()) {
      Api nextApi = Api.adminOf(next);
      String id = nextApi.post("/v1/queues/stop/kept/jobs", "{\"payload\": 1}").field("id");
      Reply leased = nextApi.post("/v1/queues/stop/kept/leases", "{\"wait_ms\": 5000}");
      assertThat(leased.json().get("jobs").get(0).get("id").asText()).isEqualTo(id);
      assertThat(leased.json().get("jobs").get(0).get("attempt").asInt()).isEqualTo(1);
    }
  }

  @Test
  void aServerStoppedBySigtermExitsWithZeroAfterItsGracefulShutdown() {
    try (MainProcess process =
        MainProcess.start(
            Map.of(
                "LINEUP_REDIS_URL", servers.redis().uri(),
                "LINEUP_ADMIN_TOKEN", LineupServerExtension.ADMIN_TOKEN,
                "LINEUP_DATA_DIR", dataDir.toString()),
            "--port=0")) {
      String url = process.awaitListening(MainProcess.START_TIMEOUT);
      assertThat(new Api(url, LineupServerExtension.ADMIN_TOKEN).get("/ready").status())
          .isEqualTo(200);

      process.terminate();

      int code = process.awaitExit(Duration.ofSeconds(30));
      assertThat(code)
          .as("exit code after SIGTERM; output:%n%s", String.join("\n", process.lines()))
          .isZero();
      assertThat(process.lines()).anyMatch(line -> line.contains("Lineup stopped"));
    }
  }

  @Test
  void aPublishBeingServedWhenTheShutdownBeginsIsAnsweredBeforeTheServerStops() throws Exception {
    LineupServer server = servers.startAnother();
    Api api = Api.adminOf(server);
    assertThat(api.post("/v1/queues/stop/lane/jobs", "{\"payload\": 0}").status()).isEqualTo(201);
    Thread busy = BusyRedis.keepBusy(servers.redisProcess(), Duration.ofMillis(3500));
    try (RawHttp http = RawHttp.connect(server.port())) {
      // Read and started, then waiting for Redis, which runs a script for 3.5 s: longer than
      // the rest of the shutdown takes, within the command timeout (5 s).
      http.post(
          "/v1/queues/stop/lane/jobs",
          LineupServerExtension.ADMIN_TOKEN,
          "{\"id\": \"late\", \"payload\": 1}");
      await().atMost(Duration.ofSeconds(5)).until(() -> server.requestsInProgress() == 1);
      CompletableFuture<Void> closed = CompletableFuture.runAsync(server::close);

      List<String> answers = http.answers(1);

      assertThat(answers)
          .singleElement()
          .asString()
          .startsWith("HTTP/1.1 201")
          .as("the last answer on this connection")
          .containsIgnoringCase("Connection: close");
      assertThat(http.closedByServerWithin(Duration.ofSeconds(5))).isTrue();
      // Well within the shutdown grace (10 s), which an open connection would hold it for.
      closed.get(5, TimeUnit.SECONDS);
    } finally {
      busy.join();
    }
  }

  /** Starts a minute-long lease wait and returns once its consumer is blocked in Redis. */
  private static CompletableFuture<Reply> aLongPollWaitingOn(Api api, String leasesPath) {
    CompletableFuture<Reply> waiting =
        CompletableFuture.supplyAsync(
            () -> api.send("POST", leasesPath, "{\"wait_ms\": 60000}", Duration.ofSeconds(90)));
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> RedisInfo.blockedClients(servers.redisProcess()) == 1);
    return waiting;
  }
}
