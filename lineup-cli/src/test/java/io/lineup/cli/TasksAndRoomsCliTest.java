package io.lineup.cli;

import static io.lineup.cli.CliTest.assertOneLineError;
import static io.lineup.cli.CliTest.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.lineup.cli.CliRunner.Run;
import io.lineup.client.EndpointName;
import io.lineup.client.EndpointSettings;
import io.lineup.client.LineupClient;
import io.lineup.client.RoomName;
import io.lineup.client.RoomSettings;
import io.lineup.client.TestServer;
import io.lineup.testing.RedisServerExtension;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code lineup tasks} and {@code lineup rooms}, run as processes against a real server. */
class TasksAndRoomsCliTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  static TestServer server;
  static LineupClient client;
  static CliRunner lineup;
  static HttpServer target;
  static final AtomicInteger received = new AtomicInteger();

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.start(redis.uri());
    client = server.adminClient();
    lineup =
        CliRunner.inProcess(
            Map.of("LINEUP_URL", server.url(), "LINEUP_TOKEN", TestServer.ADMIN_TOKEN));
    target = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    target.createContext(
        "/",
        exchange -> {
          received.incrementAndGet();
          exchange.getRequestBody().readAllBytes();
          byte[] answer = "{\"rendered\":true}".getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, answer.length);
          exchange.getResponseBody().write(answer);
          exchange.close();
        });
    target.start();
  }

  @AfterAll
  static void stop() {
    target.stop(0);
    client.close();
    server.close();
  }

  static String endpoint(String prefix) {
    EndpointName name = EndpointName.of("cli", RedisServerExtension.uniqueName(prefix));
    client
        .dispatch()
        .putEndpoint(
            name, EndpointSettings.of("http://127.0.0.1:" + target.getAddress().getPort()));
    return name.toString();
  }

  static String room(String prefix, int maxActive) {
    RoomName name = RoomName.of("cli", RedisServerExtension.uniqueName(prefix));
    client.rooms().putRoom(name, RoomSettings.maxActive(maxActive));
    return name.toString();
  }

  @Test
  void tasksSubmitWaitsForTheResponseAndGetAndCancelReadAndStopTasks() throws Exception {
    String endpoint = endpoint("tasks");

    JsonNode done =
        json(
            lineup.run(
                "tasks",
                "submit",
                endpoint,
                "/render",
                "{\"prompt\": \"cat\"}",
                "--priority",
                "2",
                "--idempotency-key",
                "k1",
                "--wait",
                "20s",
                "--json"));

    assertThat(done.path("created").asBoolean()).isTrue();
    assertThat(done.path("status").asText()).isEqualTo("succeeded");
    assertThat(done.path("priority").asInt()).isEqualTo(2);
    assertThat(done.path("response").path("status").asInt()).isEqualTo(200);
    assertThat(done.path("response").path("body").path("rendered").asBoolean()).isTrue();
    String id = done.path("id").asText();

    Run table = lineup.run("tasks", "get", endpoint, id);
    assertThat(table.exitCode()).as(table.toString()).isZero();
    assertThat(table.stdout())
        .contains("status:", "SUCCEEDED", "POST /render", "200 {\"rendered\":true}");

    Run later = lineup.run("tasks", "submit", endpoint, "/later", "--delay", "5m", "--json");
    String laterId = json(later).path("id").asText();
    Run cancelled = lineup.run("tasks", "cancel", endpoint, laterId);
    assertThat(cancelled.exitCode()).as(cancelled.toString()).isZero();
    assertThat(cancelled.stdout()).contains("cancelled " + laterId, "QUEUED");
    assertOneLineError(lineup.run("tasks", "cancel", endpoint, laterId), ExitCodes.CONFLICT, "");
  }

  @Test
  void tasksSubmitSendsTheFairnessKeyAndShowsIt() throws Exception {
    String endpoint = endpoint("key");

    JsonNode submitted =
        json(lineup.run("tasks", "submit", endpoint, "/x", "--key", "customer-42", "--json"));

    assertThat(submitted.path("key").asText()).isEqualTo("customer-42");
    assertOneLineError(
        lineup.run("tasks", "submit", endpoint, "/x", "--key", "no spaces"),
        ExitCodes.USAGE,
        "(invalid_field)");
  }

  @Test
  void aDeadlineTheLineCannotMeetIsRefusedAndALaterOneIsAccepted() throws Exception {
    String endpoint = endpoint("deadline");
    assertOneLineError(
        lineup.run("tasks", "submit", endpoint, "/x", "--start-by", "2020-01-01T00:00:00Z"),
        ExitCodes.UNAVAILABLE,
        "deadline_unreachable");
    assertOneLineError(
        lineup.run("tasks", "submit", endpoint, "/x", "--finish-by", "soon"),
        ExitCodes.USAGE,
        "--finish-by");
    JsonNode accepted =
        json(lineup.run("tasks", "submit", endpoint, "/x", "--finish-by", "1h", "--json"));
    assertThat(accepted.path("status").asText()).isEqualTo("queued");

    String q = CliTest.queue("deadline");
    assertOneLineError(
        lineup.run("publish", q, "1", "--start-by", "2020-01-01T01:00:00+01:00"),
        ExitCodes.UNAVAILABLE,
        "[start_by] (deadline_unreachable)");
    JsonNode published = json(lineup.run("publish", q, "1", "--start-by", "10m", "--json"));
    assertThat(published.path("created").asBoolean()).isTrue();
  }

  @Test
  void tasksRefusalsAreOneLineWithTheirExitCodes() {
    String endpoint = endpoint("bad");

    assertOneLineError(
        lineup.run("tasks", "submit", "cli/no-such-endpoint", "/x"), ExitCodes.NOT_FOUND, "");
    assertOneLineError(
        lineup.run("tasks", "submit", endpoint, "/../etc"), ExitCodes.USAGE, "(invalid_field)");
    assertOneLineError(
        lineup.run("tasks", "submit", endpoint, "/x", "{not json"), ExitCodes.USAGE, "not JSON");
    assertOneLineError(lineup.run("tasks", "get", "no-slash", "~1"), ExitCodes.USAGE, "namespace");
  }

  @Test
  void roomsJoinAdmitsOrWaitsAndTicketReadsThePositionOrThePass() throws Exception {
    String room = room("line", 1);

    JsonNode first = json(lineup.run("rooms", "join", room, "--json"));
    JsonNode second = json(lineup.run("rooms", "join", room, "--json"));

    assertThat(first.path("status").asText()).isEqualTo("admitted");
    assertThat(first.path("pass").asText()).contains(".");
    assertThat(second.path("status").asText()).isEqualTo("waiting");
    assertThat(second.path("position").asLong()).isZero();
    Run table = lineup.run("rooms", "ticket", room, second.path("ticket").asText());
    assertThat(table.exitCode()).as(table.toString()).isZero();
    assertThat(table.stdout()).contains("status:", "WAITING", "position: 0");

    Run longPoll =
        lineup.run("rooms", "ticket", room, second.path("ticket").asText(), "--wait", "1s");
    assertThat(longPoll.exitCode()).as(longPoll.toString()).isZero();
    assertThat(longPoll.stdout()).contains("WAITING", "position: 0");
    assertOneLineError(
        lineup.run("rooms", "ticket", room, second.path("ticket").asText(), "--wait", "31s"),
        ExitCodes.USAGE,
        "at most 30s");

    Run notInTime = lineup.run("rooms", "join", room, "--wait", "1s");
    assertThat(notInTime.exitCode()).as(notInTime.toString()).isEqualTo(ExitCodes.NOT_ADMITTED);
    assertThat(notInTime.stdout()).contains("WAITING");
    assertOneLineError(
        lineup.run("rooms", "ticket", room, "bad-id"), ExitCodes.USAGE, "(invalid_name)");
    assertOneLineError(lineup.run("rooms", "join", "cli/no-such-room"), ExitCodes.NOT_FOUND, "");
  }
}
