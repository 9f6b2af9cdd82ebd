package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every connection starts on the lane connection, which serves plain publishes itself and hands the
 * connection, bytes untouched, to Jetty at the first request that is anything else: over a raw
 * socket, what a client sees is what Jetty alone would answer, in order.
 */
class LaneConnectionTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  private static final String TOKEN = LineupServerExtension.ADMIN_TOKEN;

  /** A whole publish request of one job with this id and payload. */
  private static String publish(String queue, String id, String payload, String extraHeaders) {
    String body = "{\"id\": \"" + id + "\", \"payload\": " + payload + "}";
    return "POST /v1/queues/shop/"
        + queue
        + "/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
        + TOKEN
        + "\r\n"
        + extraHeaders
        + "Content-Type: application/json\r\nContent-Length: "
        + body.length()
        + "\r\n\r\n"
        + body;
  }

  private static String publish(String queue, String id) {
    return publish(queue, id, "1", "");
  }

  private static String get(String path) {
    return "GET "
        + path
        + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
        + TOKEN
        + "\r\n\r\n";
  }

  @Test
  void pipelinedPublishesAreAnsweredInTheOrderSentAndQueuedInThatOrder() {
    try (RawHttp http = RawHttp.connect(server.port())) {
      http.send(publish("piped", "a") + publish("piped", "b") + publish("piped", "c"));

      List<String> answers = http.answers(3);

      assertThat(answers).hasSize(3);
      assertThat(answers).allSatisfy(answer -> assertThat(answer).startsWith("HTTP/1.1 201"));
      assertThat(answers.get(0)).contains("\"id\":\"a\"");
      assertThat(answers.get(1)).contains("\"id\":\"b\"");
      assertThat(answers.get(2)).contains("\"id\":\"c\"");
    }
    assertThat(server.admin().get("/v1/queues/shop/piped/jobs/c").field("position")).isEqualTo("2");
  }

  @Test
  void aConnectionHandedToJettyAtAnotherRequestServesEveryRequestAfterIt() {
    try (RawHttp http = RawHttp.connect(server.port())) {
      http.send(
          publish("handed", "first")
              + get("/v1/queues/shop/handed/jobs/first")
              + publish("handed", "second"));

      List<String> answers = http.answers(3);

      assertThat(answers).hasSize(3);
      assertThat(answers.get(0)).startsWith("HTTP/1.1 201").contains("\"id\":\"first\"");
      assertThat(answers.get(1)).startsWith("HTTP/1.1 200").contains("\"id\":\"first\"");
      assertThat(answers.get(2)).startsWith("HTTP/1.1 201").contains("\"id\":\"second\"");
      await()
          .atMost(Duration.ofSeconds(5))
          .alias("the lane's read buffer goes back to the pool at the hand-over")
          .until(() -> server.running().laneBuffersHeld() == 0);
    }
  }

  @Test
  void connectionsWaitingForTheirNextRequestHoldNoReadBuffer() {
    List<RawHttp> open = new ArrayList<>();
    try {
      for (int i = 0; i < 20; i++) {
        RawHttp http = RawHttp.connect(server.port());
        open.add(http);
        assertThat(http.send(publish("idle", "job-" + i)).answers(1))
            .singleElement()
            .asString()
            .startsWith("HTTP/1.1 201");
      }
      await().atMost(Duration.ofSeconds(5)).until(() -> server.running().laneBuffersHeld() == 0);

      // A head half sent keeps its buffer until the rest comes.
      String request = publish("idle", "in-halves");
      RawHttp halves = open.get(7);
      halves.send(request.substring(0, 40));
      await().atMost(Duration.ofSeconds(5)).until(() -> server.running().laneBuffersHeld() == 1);
      assertThat(halves.send(request.substring(40)).answers(1))
          .singleElement()
          .asString()
          .startsWith("HTTP/1.1 201");
      await().atMost(Duration.ofSeconds(5)).until(() -> server.running().laneBuffersHeld() == 0);

      // Each connection takes a buffer again for its next request.
      for (int i = 0; i < open.size(); i++) {
        assertThat(open.get(i).send(publish("idle", "again-" + i)).answers(1))
            .singleElement()
            .asString()
            .startsWith("HTTP/1.1 201")
            .contains("\"id\":\"again-" + i + "\"");
      }
    } finally {
      open.forEach(RawHttp::close);
    }
    assertThat(server.admin().get("/v1/queues/shop/idle/jobs/again-19").field("position"))
        .isEqualTo("40");
  }

  @Test
  void aRequestSentAFewBytesAtATimeIsServed() {
    String request = publish("trickled", "slow", "{\"note\": \"sent in pieces\"}", "");
    try (RawHttp http = RawHttp.connect(server.port())) {
      for (int at = 0; at < request.length(); at += 7) {
        http.send(request.substring(at, Math.min(request.length(), at + 7)));
      }

      assertThat(http.answers(1)).singleElement().asString().startsWith("HTTP/1.1 201");
    }
    assertThat(server.admin().get("/v1/queues/shop/trickled/jobs/slow").text())
        .contains("sent in pieces");
  }

  @Test
  void bodiesLargerThanTheHeadBufferAndLargerThanTheLaneTakesAreBothServedAndWhatFollowsThemToo() {
    String forty = "\"" + "x".repeat(40 * 1024) + "\"";
    String hundred = "\"" + "y".repeat(100 * 1024) + "\"";
    try (RawHttp http = RawHttp.connect(server.port())) {
      http.send(
          publish("large", "forty", forty, "")
              + publish("large", "after-forty")
              + publish("large", "hundred", hundred, "")
              + publish("large", "after-hundred"));

      List<String> answers = http.answers(4);

      assertThat(answers).hasSize(4);
      assertThat(answers).allSatisfy(answer -> assertThat(answer).startsWith("HTTP/1.1 201"));
      assertThat(answers.get(3)).contains("\"id\":\"after-hundred\"");
    }
    assertThat(server.admin().get("/v1/queues/shop/large/jobs/hundred").text())
        .contains("y".repeat(100 * 1024));
    assertThat(server.admin().get("/v1/queues/shop/large/jobs/forty").text())
        .contains("x".repeat(40 * 1024));
  }

  @Test
  void connectionCloseIsAnsweredAndTheConnectionClosed() {
    try (RawHttp http = RawHttp.connect(server.port())) {
      http.send(publish("closing", "last", "1", "Connection: close\r\n"));

      assertThat(http.answers(1))
          .singleElement()
          .asString()
          .startsWith("HTTP/1.1 201")
          .containsIgnoringCase("Connection: close");
      assertThat(http.closedByServerWithin(Duration.ofSeconds(5))).isTrue();
    }
  }

  /**
   * A request the lane does not take gets the answer Jetty gives it when it comes on a connection
   * Jetty already has (after a GET): the lane handed the bytes over untouched.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "two lengths | Content-Length: 2\\r\\nContent-Length: 3\\r\\n\\r\\n{}",
        "length and chunked | Content-Length: 2\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n0\\r\\n\\r\\n",
        "folded header | Content-Length: 2\\r\\nX-Note: a\\r\\n b\\r\\n\\r\\n{}",
        "space before colon | Content-Length : 2\\r\\n\\r\\n{}",
        "chunked | Transfer-Encoding: chunked\\r\\n\\r\\n2\\r\\n{}\\r\\n0\\r\\n\\r\\n",
        "no length | \\r\\n",
      })
  void aRequestTheLaneDoesNotTakeIsAnsweredAsJettyAnswersIt(String what, String rest) {
    String request =
        "POST /v1/queues/shop/odd/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
            + TOKEN
            + "\r\n"
            + rest.replace("\\r\\n", "\r\n");
    String first;
    try (RawHttp http = RawHttp.connect(server.port())) {
      first = statusLine(http.send(request).answers(1));
    }
    String afterJetty;
    try (RawHttp http = RawHttp.connect(server.port())) {
      List<String> answers = http.send(get("/health") + request).answers(2);
      assertThat(answers).as(what).hasSize(2);
      afterJetty = statusLine(answers.subList(1, 2));
    }

    assertThat(first).as(what).isEqualTo(afterJetty);
  }

  private static String statusLine(List<String> answers) {
    assertThat(answers).hasSize(1);
    return answers.get(0).substring(0, answers.get(0).indexOf("\r\n"));
  }
}
