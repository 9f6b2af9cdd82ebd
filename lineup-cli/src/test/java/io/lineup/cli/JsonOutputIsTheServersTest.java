package io.lineup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lineup.cli.CliRunner.Run;
import io.lineup.client.LineupClient;
import io.lineup.client.NewJob;
import io.lineup.client.QueueName;
import io.lineup.client.SettingsChange;
import io.lineup.client.TestServer;
import io.lineup.testing.RedisServerExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code --json} prints the resource as the server sent it: the same JSON tree as the HTTP answer,
 * every field included (the ETA band too).
 */
class JsonOutputIsTheServersTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  static final ObjectMapper JSON = new ObjectMapper();
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

  @Test
  void jobsGetJsonIsTheServersJobWithItsEtaBand() throws Exception {
    QueueName q = QueueName.parse("cli/" + RedisServerExtension.uniqueName("wire"));
    // An expected service time gives a waiting job an ETA before the queue has served any.
    client.publish(q, NewJob.ofJson("{\"first\": true}"));
    client.configure(q, SettingsChange.create().expectedServiceTime(Duration.ofSeconds(2)));
    client.publish(q, NewJob.ofJson("{\"order\": 42, \"items\": [1, 2.5, \"x\"]}").id("order-42"));

    JsonNode served = http("/v1/queues/" + q + "/jobs/order-42");
    assertThat(served.get("eta_ms").isNumber()).as(served.toString()).isTrue();
    assertThat(served.get("eta_low_ms").isNumber()).isTrue();
    assertThat(served.get("eta_high_ms").isNumber()).isTrue();

    JsonNode printed = json(lineup.run("jobs", "get", q.toString(), "order-42", "--json"));

    assertThat(printed).isEqualTo(served);
  }

  @Test
  void jobsGetJsonKeepsABinaryPayloadInBase64AsTheServerDoes() throws Exception {
    QueueName q = QueueName.parse("cli/" + RedisServerExtension.uniqueName("wire-bytes"));
    client.publish(q, NewJob.of(new byte[] {0, 1, 2, (byte) 0xff}).id("raw"));

    JsonNode served = http("/v1/queues/" + q + "/jobs/raw");
    assertThat(served.has("payload_base64")).as(served.toString()).isTrue();

    assertThat(json(lineup.run("jobs", "get", q.toString(), "raw", "--json"))).isEqualTo(served);
  }

  @Test
  void publishJsonIsTheServersPublishResult() throws Exception {
    String q = "cli/" + RedisServerExtension.uniqueName("wire-publish");
    JsonNode printed = json(lineup.run("publish", q, "{\"a\": 1}", "--id", "one", "--json"));

    JsonNode served = http("/v1/queues/" + q + "/jobs/one");
    assertThat(printed.get("id")).isEqualTo(served.get("id"));
    assertThat(printed.get("due_at")).isEqualTo(served.get("due_at"));
    assertThat(fieldNames(printed)).containsExactly("id", "created", "state", "due_at", "position");
  }

  @Test
  void schedulesLsJsonIsTheServersListOfSchedules() throws Exception {
    String q = "cli/" + RedisServerExtension.uniqueName("wire-schedules").replace(':', '-');
    json(
        lineup.run(
            "schedules",
            "add",
            q,
            "nightly",
            "--cron",
            "0 0 2 * * *",
            "--zone",
            "Asia/Tokyo",
            "--payload",
            "{\"n\": [1, 2.5]}",
            "--start",
            "2030-01-01T00:00:00Z",
            "--json"));

    JsonNode served = http("/v1/queues/" + q + "/schedules").get("schedules");

    assertThat(json(lineup.run("schedules", "ls", q, "--json"))).isEqualTo(served);
  }

  private static java.util.List<String> fieldNames(JsonNode node) {
    java.util.List<String> names = new java.util.ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  private static JsonNode json(Run run) throws Exception {
    assertThat(run.exitCode()).as(run.toString()).isZero();
    return JSON.readTree(run.stdout());
  }

  private static JsonNode http(String path) throws Exception {
    try (HttpClient http = HttpClient.newHttpClient()) {
      HttpResponse<String> answer =
          http.send(
              HttpRequest.newBuilder(URI.create(server.url() + path))
                  .header("Authorization", "Bearer " + TestServer.ADMIN_TOKEN)
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
      return JSON.readTree(answer.body());
    }
  }
}
