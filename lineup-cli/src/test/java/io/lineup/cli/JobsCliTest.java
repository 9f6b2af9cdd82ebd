package io.lineup.cli;

import static io.lineup.cli.CliTest.assertOneLineError;
import static io.lineup.cli.CliTest.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.cli.CliRunner.Run;
import io.lineup.client.LineupClient;
import io.lineup.client.NewJob;
import io.lineup.client.QueueName;
import io.lineup.client.TestServer;
import io.lineup.testing.RedisServerExtension;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code lineup jobs ls} and the actions on jobs, run in the test's JVM against a real server. */
class JobsCliTest {
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

  /** A queue of its own with these delayed jobs, as namespace/name. */
  static String queueWithDelayed(String prefix, String... ids) {
    QueueName queue =
        QueueName.of("clijobs", RedisServerExtension.uniqueName(prefix).replace(':', '-'));
    for (String id : ids) {
      client.publish(
          queue, NewJob.ofJson("{\"id\": \"" + id + "\"}").id(id).delay(Duration.ofHours(1)));
    }
    return queue.toString();
  }

  @Test
  void lsPrintsAPageAsATableWithTheCursorOfTheNextAndAsTheServersJson() throws Exception {
    String queue = queueWithDelayed("ls", "d1", "d2", "d3");
    Run table = lineup.run("jobs", "ls", queue, "--state", "delayed", "--limit", "2");
    assertThat(table.exitCode()).as(table.toString()).isZero();
    assertThat(table.stdout())
        .contains("ID", "STATE", "d1", "d2", "DELAYED", "next page: --cursor ");
    assertThat(table.stdout()).doesNotContain("d3");

    JsonNode page =
        json(lineup.run("jobs", "ls", queue, "--state", "delayed", "--limit", "2", "--json"));
    String cursor = page.get("next_cursor").asText();
    JsonNode next =
        json(lineup.run("jobs", "ls", queue, "--state", "delayed", "--cursor", cursor, "--json"));
    assertThat(next.get("jobs")).hasSize(1);
    assertThat(next.get("jobs").get(0).get("id").asText()).isEqualTo("d3");
    assertThat(next.get("next_cursor").isNull()).isTrue();

    JsonNode filtered =
        json(lineup.run("jobs", "ls", queue, "--state", "delayed", "--id-prefix", "d2", "--json"));
    assertThat(filtered.get("jobs")).hasSize(1);
  }

  @Test
  void runNowAndDeleteTakeIdsOrAllMatchingWithTheExpectedCount() throws Exception {
    String queue = queueWithDelayed("act", "a1", "a2", "b1");
    Run ran = lineup.run("jobs", "run-now", queue, "a1", "nobody");
    assertThat(ran.exitCode()).as(ran.toString()).isZero();
    assertThat(ran.stdout()).contains("run_now: 1 of 2 done", "skipped nobody (not_found)");
    assertThat(client.get(QueueName.parse(queue), "a1").state().name()).isEqualTo("READY");

    Run wrong =
        lineup.run(
            "jobs", "delete", queue, "--all-matching", "--state", "delayed", "--expect", "5");
    assertOneLineError(wrong, ExitCodes.CONFLICT, "count_mismatch");

    JsonNode deleted =
        json(
            lineup.run(
                "jobs",
                "delete",
                queue,
                "--all-matching",
                "--state",
                "delayed",
                "--expect",
                "2",
                "--json"));
    assertThat(deleted.get("done").asLong()).isEqualTo(2);
    assertThat(deleted.get("action").asText()).isEqualTo("delete");

    JsonNode cancelled = json(lineup.run("jobs", "cancel", queue, "a1", "zz", "--json"));
    assertThat(cancelled.get("done").asLong()).isEqualTo(1);
    assertThat(cancelled.get("skipped").get(0).get("reason").asText()).isEqualTo("not_found");
  }

  @Test
  void anActionWithoutIdsOrWithoutExpectIsAUsageError() {
    String queue = queueWithDelayed("usage", "u1");
    assertOneLineError(lineup.run("jobs", "respawn", queue), ExitCodes.USAGE, "--all-matching");
    assertOneLineError(
        lineup.run("jobs", "respawn", queue, "--all-matching", "--state", "dead"),
        ExitCodes.USAGE,
        "--expect");
    assertOneLineError(
        lineup.run("jobs", "ls", queue, "--state", "sleeping"), ExitCodes.USAGE, "state");
  }
}
