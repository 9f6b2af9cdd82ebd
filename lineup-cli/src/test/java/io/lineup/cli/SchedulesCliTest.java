package io.lineup.cli;

import static io.lineup.cli.CliTest.assertOneLineError;
import static io.lineup.cli.CliTest.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.cli.CliRunner.Run;
import io.lineup.client.EndpointName;
import io.lineup.client.EndpointSettings;
import io.lineup.client.LineupClient;
import io.lineup.client.TestServer;
import io.lineup.testing.RedisServerExtension;
import java.nio.file.Files;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code lineup schedules}, run in the test's JVM against a real server. */
class SchedulesCliTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  /** 2030-06-01T00:00:00Z in epoch milliseconds: 02:00 in Paris (summer time, UTC+2). */
  static final long JUNE_1 = Instant.parse("2030-06-01T00:00:00Z").toEpochMilli();

  static TestServer server;
  static LineupClient client;
  static CliRunner lineup;

  @BeforeAll
  static void start() {
    server = TestServer.start(redis.uri());
    client = server.adminClient();
    lineup =
        CliRunner.inProcess(
            Map.of("LINEUP_URL", server.url(), "LINEUP_TOKEN", TestServer.ADMIN_TOKEN));
  }

  @AfterAll
  static void stop() {
    client.close();
    server.close();
  }

  static String queue(String prefix) {
    return "cli/" + RedisServerExtension.uniqueName(prefix).replace(':', '-');
  }

  @Test
  void aScheduleIsAddedListedPausedResumedAndRemoved() throws Exception {
    String queue = queue("life");
    Run added =
        lineup.run(
            "schedules",
            "add",
            queue,
            "nightly",
            "--cron",
            "0 0 2 * * *",
            "--zone",
            "Europe/Paris",
            "--payload",
            "{\"report\":\"sales\"}",
            "--priority",
            "2",
            "--ttl",
            "1h",
            "--missed",
            "catch-up",
            "--start",
            "2030-06-01T00:00:00Z",
            "--max-runs",
            "10",
            "--jitter",
            "2s");
    assertThat(added.exitCode()).as(added.toString()).isZero();
    assertThat(added.stdout())
        .contains("schedule:", "nightly", "0 0 2 * * *", "Europe/Paris", "active", "catch_up");

    JsonNode read = json(lineup.run("schedules", "ls", queue, "--json"));
    assertThat(read).hasSize(1);
    JsonNode s = read.get(0);
    assertThat(s.path("name").asText()).isEqualTo("nightly");
    assertThat(s.path("job").path("payload").path("report").asText()).isEqualTo("sales");
    assertThat(s.path("job").path("priority").asInt()).isEqualTo(2);
    assertThat(s.path("job").path("ttl_ms").asLong()).isEqualTo(3_600_000);
    assertThat(s.path("max_runs").asLong()).isEqualTo(10);
    assertThat(s.path("jitter_ms").asLong()).isEqualTo(2000);
    assertThat(s.path("start_at").asLong()).isEqualTo(JUNE_1);
    assertThat(s.path("next_tick_at").asLong()).isEqualTo(JUNE_1);

    Run table = lineup.run("schedules", "ls", queue);
    assertThat(table.stdout().lines().findFirst().orElseThrow())
        .contains("NAME", "WHEN", "ZONE", "STATE", "NEXT", "RUNS", "LAST");
    assertThat(table.stdout()).contains("nightly", "0 0 2 * * *", "Europe/Paris", "active");

    JsonNode next = json(lineup.run("schedules", "next", queue, "nightly", "-n", "2", "--json"));
    assertThat(next.path("ticks_at").get(0).asLong()).isEqualTo(JUNE_1);
    assertThat(next.path("ticks_at").get(1).asLong()).isEqualTo(JUNE_1 + 86_400_000L);
    Run nextTable = lineup.run("schedules", "next", queue, "nightly");
    assertThat(nextTable.stdout().lines()).hasSize(5);
    assertThat(Instant.parse(nextTable.stdout().lines().findFirst().orElseThrow().split(" ")[0]))
        .isEqualTo(Instant.parse("2030-06-01T00:00:00Z"));

    assertThat(lineup.run("schedules", "pause", queue, "nightly").stdout()).contains("paused");
    assertThat(
            json(lineup.run("schedules", "resume", queue, "nightly", "--json"))
                .path("state")
                .asText())
        .isEqualTo("active");
    Run removed = lineup.run("schedules", "rm", queue, "nightly");
    assertThat(removed.exitCode()).as(removed.toString()).isZero();
    assertThat(json(lineup.run("schedules", "ls", queue, "--json"))).isEmpty();
    assertOneLineError(
        lineup.run("schedules", "rm", queue, "nightly"), ExitCodes.NOT_FOUND, "no schedule");
  }

  @Test
  void anIntervalScheduleTakesItsPayloadFromAFileOrAsText() throws Exception {
    String queue = queue("file");
    Files.writeString(lineup.workDir().resolve("payload.json"), "{\"from\": \"file\"}");
    JsonNode fromFile =
        json(
            lineup.run(
                "schedules",
                "add",
                queue,
                "f",
                "--every",
                "5m",
                "--payload-file",
                "payload.json",
                "--paused",
                "--json"));
    assertThat(fromFile.path("every_ms").asLong()).isEqualTo(300_000);
    assertThat(fromFile.path("job").path("payload").path("from").asText()).isEqualTo("file");
    assertThat(fromFile.path("state").asText()).isEqualTo("paused");
    JsonNode text =
        json(
            lineup.run(
                "schedules",
                "add",
                queue,
                "t",
                "--every",
                "1h",
                "--payload",
                "hello",
                "--text",
                "--json"));
    assertThat(text.path("job").path("payload_base64").asText())
        .isEqualTo(java.util.Base64.getEncoder().encodeToString("hello".getBytes()));
  }

  @Test
  void badArgumentsAndABadCronAreOneLineErrors() {
    String queue = queue("bad");
    assertOneLineError(
        lineup.run("schedules", "add", queue, "x", "--cron", "0 61 * * * *", "--payload", "1"),
        ExitCodes.USAGE,
        "minutes");
    assertOneLineError(
        lineup.run("schedules", "add", queue, "x", "--every", "1m"), ExitCodes.USAGE, "--payload");
    assertOneLineError(
        lineup.run("schedules", "add", queue, "x", "--every", "soon", "--payload", "1"),
        ExitCodes.USAGE,
        "--every");
    assertOneLineError(
        lineup.run(
            "schedules", "add", queue, "x", "--every", "1m", "--zone", "UTC", "--payload", "1"),
        ExitCodes.USAGE,
        "--zone");
    assertOneLineError(
        lineup.run(
            "schedules", "add", queue, "x", "--every", "1m", "--missed", "later", "--payload", "1"),
        ExitCodes.USAGE,
        "--missed");
    assertOneLineError(
        lineup.run("schedules", "add", queue, "x", "--every", "1m", "--payload", "{nope"),
        ExitCodes.USAGE,
        "--text");
    assertThat(
            lineup
                .run("schedules", "add", queue, "x", "--cron", "0 * * * * *", "--every", "1m")
                .exitCode())
        .isEqualTo(ExitCodes.USAGE);
    assertOneLineError(
        lineup.run("schedules", "next", queue, "none"), ExitCodes.NOT_FOUND, "no schedule");
    assertOneLineError(
        lineup.run("schedules", "next", queue, "none", "-n", "0"), ExitCodes.USAGE, "--count");
  }

  @Test
  void anEndpointsScheduleIsAddedWithItsTaskListedPausedResumedAndRemoved() throws Exception {
    EndpointName name = EndpointName.of("cli", RedisServerExtension.uniqueName("ep"));
    // Nothing listens there: the schedule stays paused while it is read, and no task is sent.
    client
        .dispatch()
        .putEndpoint(
            name, EndpointSettings.of("http://127.0.0.1:9").methods(List.of("POST", "PUT")));
    String endpoint = name.toString();

    JsonNode added =
        json(
            lineup.run(
                "schedules",
                "add",
                "--endpoint",
                endpoint,
                "sync",
                "--every",
                "5m",
                "--path",
                "/sync?full=1",
                "--body",
                "{\"full\": true}",
                "--method",
                "put",
                "--header",
                "X-Team=ops",
                "--priority",
                "2",
                "--paused",
                "--json"));
    assertThat(added.path("endpoint").asText()).isEqualTo(name.name());
    assertThat(added.path("queue").isNull()).isTrue();
    assertThat(added.path("job").isNull()).isTrue();
    JsonNode task = added.path("task");
    assertThat(task.path("method").asText()).isEqualTo("PUT");
    assertThat(task.path("path").asText()).isEqualTo("/sync?full=1");
    assertThat(task.path("body").path("full").asBoolean()).isTrue();
    assertThat(task.path("headers").path("X-Team").asText()).isEqualTo("ops");
    assertThat(task.path("priority").asInt()).isEqualTo(2);
    assertThat(added.path("every_ms").asLong()).isEqualTo(300_000);
    assertThat(added.path("state").asText()).isEqualTo("paused");

    Run shown =
        lineup.run(
            "schedules",
            "add",
            "--endpoint",
            endpoint,
            "sync",
            "--every",
            "5m",
            "--path",
            "/sync",
            "--body",
            "ping",
            "--text");
    assertThat(shown.exitCode()).as(shown.toString()).isZero();
    assertThat(shown.stdout()).contains("endpoint:", endpoint, "POST /sync", "paused");

    JsonNode listed = json(lineup.run("schedules", "ls", "--endpoint", endpoint, "--json"));
    assertThat(listed).hasSize(1);
    assertThat(listed.get(0).path("task").path("body_text").asText()).isEqualTo("ping");
    assertThat(lineup.run("schedules", "ls", endpoint, "--endpoint").stdout())
        .contains("NAME", "sync", "every 5 min", "paused");
    assertThat(
            json(lineup.run("schedules", "next", "--endpoint", endpoint, "sync", "--json"))
                .path("ticks_at"))
        .isEmpty();

    assertThat(
            json(lineup.run("schedules", "resume", "--endpoint", endpoint, "sync", "--json"))
                .path("state")
                .asText())
        .isEqualTo("active");
    // Paused again at once: its first tick would be now, and nothing here answers the task.
    assertThat(lineup.run("schedules", "pause", "--endpoint", endpoint, "sync").stdout())
        .contains("paused");

    Run removed = lineup.run("schedules", "rm", "--endpoint", endpoint, "sync");
    assertThat(removed.exitCode()).as(removed.toString()).isZero();
    assertThat(removed.stdout()).contains("endpoint " + endpoint);
    assertThat(json(lineup.run("schedules", "ls", "--endpoint", endpoint, "--json"))).isEmpty();
    assertOneLineError(
        lineup.run("schedules", "next", "--endpoint", endpoint, "sync"),
        ExitCodes.NOT_FOUND,
        "no schedule");
  }

  @Test
  void aJobsOptionsAndATasksOptionsEachBelongToTheirKindOfSchedule() {
    EndpointName name = EndpointName.of("cli", RedisServerExtension.uniqueName("kinds"));
    client.dispatch().putEndpoint(name, EndpointSettings.of("http://127.0.0.1:9"));
    String endpoint = name.toString();
    assertOneLineError(
        lineup.run("schedules", "add", "--endpoint", endpoint, "x", "--every", "1m"),
        ExitCodes.USAGE,
        "--path");
    assertOneLineError(
        lineup.run(
            "schedules",
            "add",
            "--endpoint",
            endpoint,
            "x",
            "--every",
            "1m",
            "--path",
            "/x",
            "--payload",
            "1"),
        ExitCodes.USAGE,
        "--payload");
    assertOneLineError(
        lineup.run(
            "schedules",
            "add",
            "--endpoint",
            endpoint,
            "x",
            "--every",
            "1m",
            "--path",
            "/x",
            "--body",
            "{nope"),
        ExitCodes.USAGE,
        "--text");
    assertOneLineError(
        lineup.run(
            "schedules",
            "add",
            queue("kinds"),
            "x",
            "--every",
            "1m",
            "--path",
            "/x",
            "--payload",
            "1"),
        ExitCodes.USAGE,
        "--endpoint");
    assertOneLineError(
        lineup.run("schedules", "ls", "--endpoint", "cli/no-such-endpoint"),
        ExitCodes.NOT_FOUND,
        "");
  }
}
