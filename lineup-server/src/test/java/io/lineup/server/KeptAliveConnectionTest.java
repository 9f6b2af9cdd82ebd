package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Requests on one kept-alive connection, over a raw socket: pipelined ones answered in the order
 * sent whichever way each is served (the core lane or the routes), a request that arrives a few
 * bytes at a time, bodies of every size, and {@code Connection: close}.
 */
class KeptAliveConnectionTest {
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
  void publishesAndReadsPipelinedOnOneConnectionAreAnsweredInOrder() {
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
    }
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
  void largeBodiesAreServedAndTheRequestsPipelinedAfterThemToo() {
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
}
