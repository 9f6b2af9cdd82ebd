package io.lineup.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lineup.api.resource.Job;
import io.lineup.api.resource.JobState;
import io.lineup.api.resource.PublishResult;
import io.lineup.api.resource.Ticket;
import io.lineup.api.resource.TicketStatus;
import io.lineup.client.ForbiddenException;
import io.lineup.client.LineupClient;
import io.lineup.client.NewJob;
import io.lineup.client.QueueName;
import io.lineup.client.RoomName;
import io.lineup.client.RoomSettings;
import io.lineup.client.TestServer;
import io.lineup.testing.RedisServerExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Each example does what examples/README.md says, with its delays shortened. */
class ExamplesTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  static TestServer server;
  static LineupClient admin;

  @BeforeAll
  static void start() {
    server = TestServer.start(redis.uri());
    admin = server.adminClient();
  }

  @AfterAll
  static void stop() {
    admin.close();
    server.close();
  }

  @Test
  void unpaidOrdersAreClosedAfterTheirWindowAndPaidOnesAreNot() {
    String token = server.tokenFor("shop", 0, "publish", "consume");
    try (LineupClient client = LineupClient.connect(server.url(), token);
        CloseUnpaidOrders shop = new CloseUnpaidOrders(client, Duration.ofSeconds(1))) {
      shop.startCloser();
      shop.orderPlaced("1");
      shop.orderPlaced("2");
      shop.orderPlaced("3");
      shop.orderPlaced("3"); // placed twice: still one close job
      assertThat(client.get(CloseUnpaidOrders.QUEUE, "order-1").state())
          .isEqualTo(JobState.DELAYED);
      assertThat(shop.paymentReceived("2")).isTrue();

      await().atMost(Duration.ofSeconds(10)).until(() -> shop.closedOrders().size() == 2);
      assertThat(shop.closedOrders()).containsExactlyInAnyOrder("1", "3");
      assertThat(client.get(CloseUnpaidOrders.QUEUE, "order-2").state())
          .isEqualTo(JobState.CANCELLED);
      Job closed = client.get(CloseUnpaidOrders.QUEUE, "order-1");
      assertThat(closed.startedAt() - closed.createdAt())
          .as("not closed before the window")
          .isGreaterThanOrEqualTo(Duration.ofSeconds(1).toMillis());
      await()
          .atMost(Duration.ofSeconds(5))
          .until(() -> client.get(CloseUnpaidOrders.QUEUE, "order-1").state() == JobState.DONE);
      assertThat(shop.paymentReceived("1")).as("a payment after the close is too late").isFalse();
    }
  }

  @Test
  void aVipRequestGoesAheadOfNormalOnesAndWaitingRequestsGetAPositionAndAnEta() {
    String normalToken = server.tokenFor("gpu", 0, "publish");
    String vipToken = server.tokenFor("gpu", GpuLine.VIP_PRIORITY, "publish");
    String gpuToken = server.tokenFor("gpu", 0, "consume");
    try (LineupClient normal = LineupClient.connect(server.url(), normalToken);
        LineupClient vip = LineupClient.connect(server.url(), vipToken);
        LineupClient gpu = LineupClient.connect(server.url(), gpuToken);
        GpuLine line = new GpuLine(normal, vip, gpu, Duration.ofMillis(150))) {
      List<String> normals = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        normals.add(line.submitNormal("cat " + i).id());
      }
      PublishResult vipRequest = line.submitVip("dog");
      assertThat(vipRequest.position()).as("ahead of all six").isZero();
      assertThat(line.status(normals.get(0)).position()).isEqualTo(1);
      assertThatThrownBy(() ->
              normal.publish(GpuLine.QUEUE, NewJob.ofJson("{}").priority(GpuLine.VIP_PRIORITY)))
          .as("a normal user cannot raise their own priority")
          .isInstanceOf(ForbiddenException.class);

      line.startGpu();
      String last = normals.get(normals.size() - 1);
      await()
          .atMost(Duration.ofSeconds(15))
          .untilAsserted(() -> {
            Job waiting = line.status(last);
            assertThat(waiting.state()).isEqualTo(JobState.READY);
            assertThat(waiting.etaMs()).as("an ETA once the GPU has a service rate").isNotNull();
          });
      await()
          .atMost(Duration.ofSeconds(15))
          .until(() -> line.status(last).state() == JobState.DONE);
      Job vipDone = line.status(vipRequest.id());
      assertThat(vipDone.resultText()).contains("render-of-" + vipRequest.id());
      assertThat(vipDone.finishedAt()).isLessThan(line.status(normals.get(0)).finishedAt());
    }
  }

  @Test
  void thePythonWorkerLeasesHandlesAndAcksOverPlainHttp() throws Exception {
    String python = python();
    String token = server.tokenFor("py", 0, "publish", "consume");
    QueueName queue = QueueName.of("py", RedisServerExtension.uniqueName("words"));
    try (LineupClient client = LineupClient.connect(server.url(), token)) {
      client.publish(queue, NewJob.ofJson("{\"text\": \"close unpaid orders\"}").id("three"));
      client.publish(queue, NewJob.ofJson("{\"text\": \"vip first\"}").id("two"));
      client.publish(queue, NewJob.ofJson("{\"no_text\": true}").id("bad").maxAttempts(1));

      Path script = Paths.get("python-worker", "worker.py").toAbsolutePath();
      Path log = Files.createTempFile("python-worker", ".log");
      ProcessBuilder builder =
          new ProcessBuilder(python, script.toString(), queue.toString(), "--idle-exit", "1")
              .redirectErrorStream(true)
              .redirectOutput(log.toFile());
      builder.environment().put("LINEUP_URL", server.url());
      builder.environment().put("LINEUP_TOKEN", token);
      Process process = builder.start();
      process.getOutputStream().close();
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the worker stopped when idle").isTrue();
      String output = Files.readString(log, StandardCharsets.UTF_8);
      assertThat(process.exitValue()).as(output).isZero();
      assertThat(output).contains("done three: {\"words\": 3}", "failed bad");

      assertThat(client.get(queue, "three").resultText()).isEqualTo("{\"words\":3}");
      assertThat(client.get(queue, "two").resultText()).isEqualTo("{\"words\":2}");
      Job bad = client.get(queue, "bad");
      assertThat(bad.state()).as("its only attempt failed").isEqualTo(JobState.DEAD);
      assertThat(bad.lastError()).contains("text field");
    }
  }

  @Test
  void theUpstreamNeverSeesMoreThanThreeHundredRequestsInASecondAndEveryAnswerComesBack()
      throws Exception {
    String token = server.tokenFor("shop", 0, "publish", "manage");
    try (LineupClient client = LineupClient.connect(server.url(), token);
        FakeUpstream upstream = FakeUpstream.start()) {
      ProtectUpstream shop = new ProtectUpstream(client);
      shop.register(upstream.url(), true);

      // 900 waiting at once: three seconds of the upstream's capacity (3,000 in the README's run).
      List<String> ids = shop.submitQuotes(900);
      assertThat(upstream.requests()).as("nothing sent while paused").isZero();
      shop.register(upstream.url(), false);
      List<String> answers = shop.answers(ids, Duration.ofSeconds(60));

      assertThat(answers).hasSize(900);
      assertThat(answers.get(17)).isEqualTo("{\"item\":17,\"price_cents\":114}");
      assertThat(upstream.requests()).as("each task sent once").isEqualTo(900);
      assertThat(upstream.distinctKeys()).isEqualTo(900);
      System.out.printf(
          "protect upstream: 900 tasks over %.2f s at the upstream, busiest second %d%n",
          upstream.spanSeconds(), upstream.busiestSecond());
      // 900 requests at 300 a second cannot all start within two seconds. The busiest second
      // as the upstream received them is printed, not asserted: the rate holds at the moment
      // Lineup starts a request, and on a busy machine requests arrive bunched (issue 49;
      // docs/dispatch.md). The limit in every window is checked on Lineup's own send times by
      // the server's dispatch tests; the rate reached is the bench's dispatch_per_s.
      assertThat(upstream.spanSeconds()).isGreaterThan(1.9);
    }
  }

  @Test
  void theGatewayLetsThroughOnlyRequestsWithAValidPassOfItsRoom() throws Exception {
    RoomName other = RoomName.of("shop", "other");
    admin.rooms().putRoom(PassGateway.ROOM, RoomSettings.maxActive(1));
    admin.rooms().putRoom(other, RoomSettings.maxActive(1));
    Ticket admitted = admin.rooms().join(PassGateway.ROOM);
    Ticket waiting = admin.rooms().join(PassGateway.ROOM);
    Ticket elsewhere = admin.rooms().join(other);
    assertThat(admitted.status()).isEqualTo(TicketStatus.ADMITTED);
    assertThat(waiting.pass()).isNull();

    try (PassGateway gateway =
            PassGateway.start(admin.rooms().jwks(PassGateway.ROOM), 0, PassGateway::checkout);
        HttpClient http = HttpClient.newHttpClient()) {
      String pass = admitted.pass();
      String altered = pass.substring(0, pass.length() - 3) + (pass.endsWith("A") ? "BBB" : "AAA");

      assertThat(status(http, gateway, pass)).isEqualTo(200);
      assertThat(status(http, gateway, null)).isEqualTo(401);
      assertThat(status(http, gateway, "garbage")).isEqualTo(401);
      assertThat(status(http, gateway, altered)).isEqualTo(401);
      assertThat(status(http, gateway, elsewhere.pass())).as("another room's pass").isEqualTo(401);
    }
  }

  private static int status(HttpClient http, PassGateway gateway, String pass) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(gateway.url() + "/checkout"));
    if (pass != null) {
      request.header(PassGateway.PASS_HEADER, pass);
    }
    HttpResponse<String> answer = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    if (answer.statusCode() == 200) {
      assertThat(answer.body()).isEqualTo("checkout open");
    }
    return answer.statusCode();
  }

  @Test
  void theGatewaySnippetOfTheWaitingRoomDocIsTheExamplesCode() throws Exception {
    String doc = Files.readString(Path.of("..", "docs", "waiting-room.md"), StandardCharsets.UTF_8);
    int section = doc.indexOf("## A gateway in ten lines");
    assertThat(section).as("docs/waiting-room.md has its gateway section").isPositive();
    int start = doc.indexOf("```java\n", section) + "```java\n".length();
    String snippet = doc.substring(start, doc.indexOf("```", start));
    String example =
        Files.readString(
            Path.of("src", "main", "java", "io", "lineup", "examples", "PassGateway.java"),
            StandardCharsets.UTF_8);

    assertThat(withoutCommentsAndSpace(example)).contains(withoutCommentsAndSpace(snippet));
  }

  /** The code of a text without its line comments and white space, to compare code only. */
  private static String withoutCommentsAndSpace(String code) {
    StringBuilder out = new StringBuilder();
    for (String line : code.lines().toList()) {
      int comment = line.indexOf("//");
      out.append(comment < 0 ? line : line.substring(0, comment));
    }
    return out.toString().replaceAll("\\s+", "");
  }

  /** python3, or a failure (CI) or skip (elsewhere) saying it is missing. */
  private static String python() {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      Path candidate = Paths.get(dir, "python3");
      if (Files.isExecutable(candidate)) {
        return candidate.toString();
      }
    }
    String message = "python3 is not on the PATH, so the Python worker example was not run.";
    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
      throw new AssertionError(message + " CI needs it.");
    }
    System.err.println("SKIPPED: " + message);
    Assumptions.abort(message);
    return null;
  }
}
