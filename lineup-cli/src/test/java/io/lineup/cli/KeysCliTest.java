package io.lineup.cli;

import static io.lineup.cli.CliTest.assertOneLineError;
import static io.lineup.cli.CliTest.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.cli.CliRunner.Run;
import io.lineup.client.LineupClient;
import io.lineup.client.QueueName;
import io.lineup.client.SettingsChange;
import io.lineup.client.TestServer;
import io.lineup.testing.RedisServerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code lineup keys} and {@code --key}, run in the test's JVM against a real server. */
class KeysCliTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

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

  /** A fair queue of its own, as namespace/name. */
  static String fairQueue(String prefix) {
    String name = RedisServerExtension.uniqueName(prefix).replace(':', '-');
    client.configure(QueueName.of("cli", name), SettingsChange.create().fair(true));
    return "cli/" + name;
  }

  static void publish(String queue, String key, String payload) {
    Run run = lineup.run("publish", queue, payload, "--key", key);
    assertThat(run.exitCode()).as(run.toString()).isZero();
  }

  @Test
  void publishWithAKeyAndListTheBusiestKeys() throws Exception {
    String queue = fairQueue("ls");
    publish(queue, "acme", "{\"order\":1}");
    publish(queue, "acme", "{\"order\":2}");
    publish(queue, "globex", "{\"order\":3}");

    Run table = lineup.run("keys", "ls", queue);
    assertThat(table.exitCode()).as(table.toString()).isZero();
    assertThat(table.stdout()).contains("KEY", "WAITING", "acme", "globex", "2 keys with jobs");
    assertThat(table.stdout().indexOf("acme")).isLessThan(table.stdout().indexOf("globex"));

    JsonNode top = json(lineup.run("keys", "ls", queue, "--limit", "1", "--json"));
    assertThat(top.path("keys_waiting").asLong()).isEqualTo(2);
    assertThat(top.path("keys")).hasSize(1);
    assertThat(top.path("keys").get(0).path("key").asText()).isEqualTo("acme");
    assertThat(top.path("keys").get(0).path("count").asLong()).isEqualTo(2);

    JsonNode leased = json(lineup.run("keys", "ls", queue, "--by", "leased", "--json"));
    assertThat(leased.path("by").asText()).isEqualTo("leased");
    assertThat(leased.path("keys")).isEmpty();
  }

  @Test
  void aKeyIsShownSetPausedResumedAndItsWaitingJobsDropped() throws Exception {
    String queue = fairQueue("life");
    publish(queue, "acme", "1");
    publish(queue, "acme", "2");

    Run shown = lineup.run("keys", "show", queue, "acme");
    assertThat(shown.exitCode()).as(shown.toString()).isZero();
    assertThat(shown.stdout()).contains("key:", "acme", "active", "1 (queue's)");

    Run set =
        lineup.run(
            "keys",
            "set",
            queue,
            "acme",
            "--weight",
            "3",
            "--concurrency",
            "2",
            "--rate",
            "10",
            "--rate-period",
            "1m",
            "--max-waiting",
            "100");
    assertThat(set.exitCode()).as(set.toString()).isZero();
    assertThat(set.stdout()).contains("3 (own)", "60000 ms (own)");
    JsonNode own = json(lineup.run("keys", "show", queue, "acme", "--json")).path("own");
    assertThat(own.path("weight").asInt()).isEqualTo(3);
    assertThat(own.path("concurrency").asInt()).isEqualTo(2);
    assertThat(own.path("rate").asInt()).isEqualTo(10);
    assertThat(own.path("rate_period_ms").asLong()).isEqualTo(60_000);
    assertThat(own.path("max_waiting").asInt()).isEqualTo(100);

    assertThat(lineup.run("keys", "pause", queue, "acme").stdout()).contains("paused");
    assertThat(
            json(lineup.run("keys", "resume", queue, "acme", "--json")).path("paused").asBoolean())
        .isFalse();

    Run dropped = lineup.run("keys", "drop", queue, "acme");
    assertThat(dropped.exitCode()).as(dropped.toString()).isZero();
    assertThat(dropped.stdout()).contains("Deleted 2 waiting jobs of key acme");
    assertThat(json(lineup.run("keys", "drop", queue, "acme", "--json")).path("deleted").asLong())
        .isZero();
  }

  @Test
  void aFullKeyAndBadInputExitWithOneLine() {
    String queue = fairQueue("bad");
    lineup.run("keys", "set", queue, "acme", "--max-waiting", "1");
    publish(queue, "acme", "1");
    assertOneLineError(
        lineup.run("publish", queue, "2", "--key", "acme"),
        ExitCodes.UNAVAILABLE,
        "key_backlog_full");
    assertOneLineError(
        lineup.run("publish", queue, "2", "--key", "not ok"), ExitCodes.USAGE, "[key]");
    assertOneLineError(
        lineup.run("keys", "set", queue, "acme", "--weight", "0"), ExitCodes.USAGE, "[weight]");
    assertOneLineError(lineup.run("keys", "ls", queue, "--by", "oldest"), ExitCodes.USAGE, "--by");
    assertOneLineError(lineup.run("keys", "ls", queue, "--limit", "0"), ExitCodes.USAGE, "--limit");
  }

  @Test
  void importReadsEachJobsKey(@TempDir Path dir) throws Exception {
    String queue = fairQueue("import");
    Path file = dir.resolve("jobs.jsonl");
    Files.writeString(
        file,
        "{\"payload\": 1, \"key\": \"acme\"}\n{\"payload\": 2, \"key\": \"acme\"}\n"
            + "{\"payload\": 3, \"key\": \"initech\"}\n");
    Run run = lineup.run("import", queue, "--file", file.toString());
    assertThat(run.exitCode()).as(run.toString()).isZero();
    JsonNode top = json(lineup.run("keys", "ls", queue, "--json"));
    assertThat(top.path("keys").get(0).path("key").asText()).isEqualTo("acme");
    assertThat(top.path("keys").get(0).path("count").asLong()).isEqualTo(2);
    assertThat(top.path("keys").get(1).path("key").asText()).isEqualTo("initech");
  }
}
