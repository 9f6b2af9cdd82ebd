package io.lineup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lineup.api.resource.Job;
import io.lineup.api.resource.JobState;
import io.lineup.cli.CliRunner.Run;
import io.lineup.client.LineupClient;
import io.lineup.client.NewJob;
import io.lineup.client.QueueName;
import io.lineup.client.TestServer;
import io.lineup.testing.RedisServerExtension;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import picocli.CommandLine;

/**
 * The {@code lineup} commands against a real server: their output, the shape of their {@code
 * --json}, their exit codes, and one clear line (never a stack trace) when something is wrong. Most
 * run inside the test's JVM; what only a process shows (its exit status, real standard input, a
 * child command's error stream, the server's own flags) runs as a process.
 */
class CliTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  static final ObjectMapper JSON = new ObjectMapper();
  static TestServer server;
  static LineupClient client;
  static CliRunner lineup;
  static CliRunner lineupProcess;

  @BeforeAll
  static void start() {
    server = TestServer.start(redis.uri());
    client = server.adminClient();
    lineup =
        CliRunner.inProcess(
            Map.of("LINEUP_URL", server.url(), "LINEUP_TOKEN", TestServer.ADMIN_TOKEN));
    lineupProcess =
        CliRunner.asProcess(
            Map.of("LINEUP_URL", server.url(), "LINEUP_TOKEN", TestServer.ADMIN_TOKEN));
  }

  @AfterAll
  static void stop() {
    client.close();
    server.close();
  }

  static String queue(String prefix) {
    return "cli/" + RedisServerExtension.uniqueName(prefix);
  }

  static JsonNode json(Run run) throws Exception {
    assertThat(run.exitCode()).as(run.toString()).isZero();
    return JSON.readTree(run.stdout());
  }

  /** A failure is one line on standard error, starting with "lineup:", with no stack trace. */
  static void assertOneLineError(Run run, int exitCode, String containing) {
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(exitCode);
    List<String> lines = run.stderr().lines().filter(l -> !l.startsWith("Try '")).toList();
    assertThat(lines).as(run.toString()).hasSize(1);
    assertThat(lines.get(0)).startsWith("lineup: ").contains(containing);
    assertThat(run.stderr()).doesNotContain("Exception", "\tat ");
    assertThat(run.stdout()).isEmpty();
  }

  @Test
  void publishPrintsTheJobAndJobsGetShowsItAsATableOrAsJson() throws Exception {
    String q = queue("publish");
    Run published =
        lineup.run("publish", q, "{\"order\": 42}", "--id", "order-42", "--priority", "3");
    assertThat(published.exitCode()).as(published.toString()).isZero();
    assertThat(published.stdout()).contains("id:", "order-42", "state:", "READY", "position:", "0");

    JsonNode again =
        json(lineup.run("publish", q, "{\"order\": 42}", "--id", "order-42", "--json"));
    assertThat(again.get("id").asText()).isEqualTo("order-42");
    assertThat(again.get("created").asBoolean()).isFalse();

    Run table = lineup.run("jobs", "get", q, "order-42");
    assertThat(table.stdout())
        .contains("state:", "READY", "payload:", "{\"order\":42}", "attempts:", "0 of 3");
    JsonNode job = json(lineup.run("jobs", "get", q, "order-42", "--json"));
    assertThat(job.get("state").asText()).isEqualTo("READY");
    assertThat(job.get("priority").asInt()).isEqualTo(3);
    assertThat(job.get("payload").get("order").asInt()).isEqualTo(42);
    assertThat(job.get("position").asLong()).isZero();
    assertThat(job.has("created_at")).isTrue();

    JsonNode delayed =
        json(lineup.run("publish", q, "--text", "hello", "--delay", "30m", "--json"));
    assertThat(delayed.get("state").asText()).isEqualTo("DELAYED");
    JsonNode cancelled =
        json(lineup.run("jobs", "cancel", q, delayed.get("id").asText(), "--json"));
    assertThat(cancelled.get("previous_state").asText()).isEqualTo("DELAYED");
    Run twice = lineup.run("jobs", "cancel", q, delayed.get("id").asText());
    assertOneLineError(twice, ExitCodes.CONFLICT, "job_finished");
  }

  @Test
  void publishReadsThePayloadFromStandardInput() throws Exception {
    String q = queue("stdin");
    Path payload =
        Files.writeString(lineup.workDir().resolve("payload.json"), "{\"from\": \"stdin\"}\n");
    JsonNode published = json(lineupProcess.runWithInput(payload, "publish", q, "--json"));
    assertThat(client.get(QueueName.parse(q), published.get("id").asText()).payloadText())
        .isEqualTo("{\"from\":\"stdin\"}");
  }

  @Test
  void consumePrintsAndAcksJobsThenStopsWhenNoneCome() throws Exception {
    String q = queue("consume");
    QueueName name = QueueName.parse(q);
    client.publish(name, NewJob.ofJson("{\"n\":1}").id("a"));
    client.publish(name, NewJob.ofJson("{\"n\":2}").id("b"));
    Run run = lineup.run("consume", q, "--wait", "300ms");
    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.stdout().lines())
        .containsExactly("a  attempt 1/3  {\"n\":1}", "b  attempt 1/3  {\"n\":2}");
    assertThat(client.get(name, "a").state()).isEqualTo(JobState.DONE);

    client.publish(name, NewJob.ofJson("{\"n\":3}").id("c"));
    client.publish(name, NewJob.ofJson("{\"n\":4}").id("d"));
    Run one = lineup.run("consume", q, "--max", "1", "--json");
    JsonNode job = JSON.readTree(one.stdout());
    assertThat(job.get("id").asText()).isEqualTo("c");
    assertThat(job.get("payload").get("n").asInt()).isEqualTo(3);
    assertThat(job.get("attempt").asInt()).isEqualTo(1);
    assertThat(client.get(name, "d").state()).as("--max 1 took one").isEqualTo(JobState.READY);
  }

  @Test
  void consumeExecRunsACommandPerJobAcksOnExitZeroAndNacksOtherwise() throws Exception {
    String q = queue("exec");
    QueueName name = QueueName.parse(q);
    client.publish(name, NewJob.ofJson("{\"n\":1}").id("good"));
    client.publish(name, NewJob.ofJson("{\"n\":2}").id("bad").maxAttempts(5));
    client.publish(name, NewJob.ofJson("{\"n\":3}").id("plain"));
    String script =
        "payload=$(cat); "
            + "if [ \"$LINEUP_JOB_ID\" = bad ]; then echo failing >&2; exit 3; fi; "
            + "if [ \"$LINEUP_JOB_ID\" = plain ]; then echo \"text for $LINEUP_QUEUE\"; exit 0; fi; "
            + "echo \"{\\\"seen\\\": $payload, \\\"attempt\\\": $LINEUP_ATTEMPT}\"";
    // A process: the command's error stream is the one the children inherit.
    Run run = lineupProcess.run("consume", q, "--exec", script, "--concurrency", "3", "--max", "3");
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.JOBS_FAILED);
    assertThat(run.stderr()).contains("failing", "3 jobs: 2 acked, 1 failed");

    Job good = client.get(name, "good");
    assertThat(good.state()).isEqualTo(JobState.DONE);
    assertThat(good.resultText()).isEqualTo("{\"seen\":{\"n\":1},\"attempt\":1}");
    assertThat(client.get(name, "plain").resultText()).isEqualTo("\"text for " + q + "\"");
    Job bad = client.get(name, "bad");
    assertThat(bad.state()).isIn(JobState.DELAYED, JobState.READY);
    assertThat(bad.lastError()).isEqualTo("the command exited with status 3");
  }

  @Test
  void queuesShowsATableOfDepthsAndRatesOrJson() throws Exception {
    String q = queue("table");
    QueueName name = QueueName.parse(q);
    client.publish(name, NewJob.ofJson("1"));
    client.publish(name, NewJob.ofJson("2").delay(Duration.ofHours(1)));
    Run table = lineup.run("queues", q);
    assertThat(table.exitCode()).as(table.toString()).isZero();
    List<String> lines = table.stdout().lines().toList();
    assertThat(lines.get(0).split("\\s+"))
        .containsExactly(
            "QUEUE",
            "READY",
            "DELAYED",
            "LEASED",
            "DEAD",
            "FINISHED",
            "ACKS/S",
            "PUBLISHED",
            "ACKED",
            "LIMITS");
    assertThat(lines.get(1).split("\\s+"))
        .containsExactly(q, "1", "1", "0", "0", "0", "0.0", "2", "0", "-");

    JsonNode all = json(lineup.run("queues", "--json"));
    assertThat(all.isArray()).isTrue();
    JsonNode mine = null;
    for (JsonNode item : all) {
      if (item.get("queue").asText().equals(q)) {
        mine = item;
      }
    }
    assertThat(mine).as("every queue is listed").isNotNull();
    assertThat(mine.get("counts").get("ready").asLong()).isEqualTo(1);
    assertThat(mine.get("counts").get("delayed").asLong()).isEqualTo(1);
    assertThat(mine.get("service_rate").isNumber()).isTrue();
    assertThat(mine.get("counters").get("published").asLong()).isEqualTo(2);
  }

  @Test
  void watchPrintsOneLineOfDepthsPerInterval() throws Exception {
    String q = queue("watch");
    client.publish(QueueName.parse(q), NewJob.ofJson("1"));
    Run run = lineup.run("watch", q, "--interval", "100ms", "--times", "3");
    assertThat(run.exitCode()).as(run.toString()).isZero();
    List<String> lines = run.stdout().lines().toList();
    assertThat(lines).hasSize(4);
    assertThat(lines.get(0)).contains("READY", "DELAYED", "LEASED", "DEAD", "ACKS/S");
    assertThat(lines.get(3).trim().split("\\s+")[1]).isEqualTo("1");
    Run asJson = lineup.run("watch", q, "--interval", "100ms", "--times", "2", "--json");
    assertThat(asJson.stdout().lines()).hasSize(2);
    assertThat(
            JSON.readTree(asJson.stdout().lines().findFirst().orElseThrow())
                .get("counts")
                .get("ready")
                .asLong())
        .isEqualTo(1);
  }

  @Test
  void deadLettersAreListedRespawnedAndPurged() throws Exception {
    String q = queue("dead");
    QueueName name = QueueName.parse(q);
    for (String id : List.of("d1", "d2")) {
      client.publish(name, NewJob.ofJson("{\"id\":\"" + id + "\"}").id(id).maxAttempts(1));
      client.nack(client.lease(name, 1, Duration.ofSeconds(5)).get(0), "broken " + id, null);
    }
    Run list = lineup.run("dead", "list", q);
    assertThat(list.stdout())
        .contains("ID", "LAST ERROR", "d1", "broken d1", "d2", "2 dead in all");
    JsonNode page = json(lineup.run("dead", "list", q, "--json"));
    assertThat(page.get("total").asLong()).isEqualTo(2);
    assertThat(page.get("jobs").get(0).get("last_error").asText()).isEqualTo("broken d1");

    JsonNode respawned = json(lineup.run("dead", "respawn", q, "--id", "d1", "--json"));
    assertThat(respawned.get("respawned").asLong()).isEqualTo(1);
    assertThat(client.get(name, "d1").state()).isEqualTo(JobState.READY);
    Run purged = lineup.run("dead", "purge", q);
    assertThat(purged.stdout().strip()).isEqualTo("purged 1");
    assertOneLineError(lineup.run("dead", "respawn", q), ExitCodes.USAGE, "--id");
  }

  @Test
  void tokensAndNamespacesAreManagedAndARevokedTokenIsRefusedWithExitCodeFour() throws Exception {
    String ns = RedisServerExtension.uniqueName("ns");
    assertThat(lineup.run("namespaces", "create", ns).stdout().strip())
        .isEqualTo("registered " + ns);
    Run created =
        lineup.run(
            "tokens",
            "create",
            ns,
            "--scopes",
            "publish,consume",
            "--max-priority",
            "5",
            "--name",
            "shop");
    assertThat(created.exitCode()).as(created.toString()).isZero();
    String token = created.stdout().strip();
    assertThat(token).startsWith("lu_");
    assertThat(created.stderr()).contains("shown only now");

    JsonNode listed = json(lineup.run("tokens", "list", "--namespace", ns, "--json"));
    assertThat(listed).hasSize(1);
    String id = listed.get(0).get("id").asText();
    assertThat(listed.get(0).has("token")).as("no secret in lists").isFalse();
    assertThat(listed.get(0).get("scopes").toString()).isEqualTo("[\"publish\",\"consume\"]");
    assertThat(lineup.run("tokens", "list").stdout())
        .contains("ID", "SCOPES", id, "publish,consume");

    Run published = lineup.run("publish", ns + "/work", "1", "--token", token);
    assertThat(published.exitCode()).as(published.toString()).isZero();
    assertOneLineError(
        lineup.run("publish", ns + "/work", "1", "--priority", "9", "--token", token),
        ExitCodes.REFUSED,
        "priority_not_allowed");
    assertThat(lineup.run("tokens", "revoke", id).stdout().strip()).isEqualTo("revoked " + id);
    assertOneLineError(
        lineup.run("publish", ns + "/work", "1", "--token", token),
        ExitCodes.REFUSED,
        "refused the token");
    JsonNode namespaces = json(lineup.run("namespaces", "list", "--json"));
    assertThat(namespaces.findValuesAsText("name")).contains(ns);
  }

  @Test
  void importPublishesAHundredThousandLinesAndReportsItsRate() throws Exception {
    String q = queue("import");
    Path file = lineup.workDir().resolve("jobs.ndjson");
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 100_000; i++) {
      text.append("{\"payload\":{\"n\":")
          .append(i)
          .append("},\"priority\":")
          .append(i % 3)
          .append("}\n");
    }
    Files.writeString(file, text);
    Run run = lineup.run("import", q, "--file", file.toString(), "--progress", "--json");
    JsonNode summary = json(run);
    assertThat(summary.get("published").asLong()).isEqualTo(100_000);
    assertThat(summary.get("created").asLong()).isEqualTo(100_000);
    assertThat(summary.get("complete").asBoolean()).isTrue();
    assertThat(summary.get("jobs_per_s").asLong()).isPositive();
    assertThat(run.stderr()).contains("100%", "100,000 jobs");
    assertThat(client.stats(QueueName.parse(q)).counts().ready()).isEqualTo(100_000);
    System.out.printf(
        "lineup import: 100000 jobs in %.2f s, %d jobs/s%n",
        summary.get("seconds").asDouble(), summary.get("jobs_per_s").asLong());
  }

  @Test
  void importReadsStandardInputAndStopsAtABadLineNamingIt() throws Exception {
    String q = queue("import-bad");
    Path input =
        Files.writeString(
            lineup.workDir().resolve("bad.ndjson"),
            "{\"payload\": 1}\n\n{\"payload\": 2, \"priority\": 999}\n{\"payload\": 3}\n");
    Run run = lineup.runWithInput(input, "import", q, "--batch", "10");
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
    assertThat(run.stderr().strip()).startsWith("lineup: line 3 (priority):");
    assertThat(run.stdout()).contains("imported 0 jobs");

    Path payloads =
        Files.writeString(
            lineup.workDir().resolve("payloads.ndjson"), "1\n\"two\"\n{\"three\":3}\n");
    Run plain = lineup.runWithInput(payloads, "import", q, "--payloads");
    assertThat(plain.exitCode()).as(plain.toString()).isZero();
    assertThat(plain.stdout())
        .startsWith("imported 3 jobs into " + q)
        .contains("jobs/s", "3 created");
    Run notJson =
        lineup.runWithInput(
            Files.writeString(
                lineup.workDir().resolve("nojson.ndjson"), "{\"payload\": 1}\nnot json\n"),
            "import",
            q);
    assertThat(notJson.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(notJson.stderr().strip()).isEqualTo("lineup: line 2: not JSON");
  }

  @Test
  void failuresAreOneLineWithAnExitCodeThatSaysWhatWentWrong() {
    // A process: the code is the process's exit status.
    CliRunner badToken =
        CliRunner.asProcess(Map.of("LINEUP_URL", server.url(), "LINEUP_TOKEN", "wrong-token"));
    assertOneLineError(badToken.run("queues"), ExitCodes.REFUSED, "refused the token");
    assertOneLineError(lineup.run("queues", "cli/never-used"), ExitCodes.NOT_FOUND, "not_found");
    assertOneLineError(
        lineup.run("watch", "cli/never-used", "--times", "1"), ExitCodes.NOT_FOUND, "not_found");
    assertOneLineError(
        lineup.run("queues", "--url", "http://127.0.0.1:1"),
        ExitCodes.UNREACHABLE,
        "cannot connect to http://127.0.0.1:1");
    assertOneLineError(lineup.run("publish"), ExitCodes.USAGE, "QUEUE");
    assertOneLineError(lineup.run("publish", "cli/q", "not json"), ExitCodes.USAGE, "--text");
    assertOneLineError(
        lineup.run("publish", "cli/q", "1", "--delay", "soon"), ExitCodes.USAGE, "--delay");
    assertOneLineError(
        lineup.run("publish", "cli/q", "1", "--priority", "999"), ExitCodes.USAGE, "[priority]");
    assertOneLineError(lineup.run("frobnicate"), ExitCodes.USAGE, "frobnicate");
  }

  @Test
  void everyCommandAnswersHelp() {
    Run top = lineup.run("--help");
    assertThat(top.exitCode()).isZero();
    assertThat(top.stdout())
        .contains("Usage: lineup", "publish", "consume", "import", "Exit codes");
    assertHelpEverywhere(LineupCli.commandLine(), List.of());
  }

  /** Runs "--help" for every command under this one, each on a fresh command tree. */
  private static void assertHelpEverywhere(CommandLine line, List<String> path) {
    for (CommandLine sub : line.getSubcommands().values()) {
      if (sub.getCommandName().equals("server")) {
        continue; // its --help is the server's own, tested below
      }
      List<String> args = new java.util.ArrayList<>(path);
      args.add(sub.getCommandName());
      CommandLine fresh = LineupCli.commandLine();
      ByteArrayOutputStream text = new ByteArrayOutputStream();
      fresh.setOut(new PrintWriter(text, true, StandardCharsets.UTF_8));
      args.add("--help");
      assertThat(fresh.execute(args.toArray(String[]::new))).as(String.join(" ", args)).isZero();
      assertThat(text.toString(StandardCharsets.UTF_8))
          .contains("Usage: " + sub.getCommandSpec().qualifiedName());
      args.remove(args.size() - 1);
      assertHelpEverywhere(sub, args);
    }
  }

  @Test
  void serverHelpListsTheServerFlagsAndCompletionPrintsAScript() {
    // A process: the server prints its own flags on the process's standard output.
    Run help = lineupProcess.run("server", "--help");
    assertThat(help.exitCode()).as(help.toString()).isZero();
    assertThat(help.stdout()).contains("--port", "LINEUP_REDIS_URL");
    Run completion = lineup.run("completion");
    assertThat(completion.exitCode()).isZero();
    assertThat(completion.stdout()).contains("complete -F", "lineup", "publish", "consume");
  }
}
