package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.server.LaneRequestParser.Kind;
import io.lineup.server.api.LaneAction;
import io.lineup.server.api.RouteTable;
import io.lineup.server.auth.Access;
import io.lineup.server.auth.Scope;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The lane takes only the plainest publish heads and leaves every other request to Jetty: what it
 * takes, it reads exactly; what it cannot be sure of, it hands over.
 */
class LaneRequestParserTest {
  private static final LaneAction NOTHING = (ns, name, body, principal) -> null;
  private static final LaneRoute PUBLISH =
      new LaneRoute(RouteTable.PUBLISH_PATH, Access.namespace(Scope.PUBLISH), NOTHING);
  private static final int MAX_HEAD = 512;
  private static final int MAX_BODY = 1024;

  private final LaneRequestParser parser =
      new LaneRequestParser(List.of(PUBLISH), MAX_HEAD, MAX_BODY);

  /** A plain publish head with these header lines between Host and the blank line. */
  private static String publish(String headerLines) {
    return "POST /v1/queues/shop/orders/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + headerLines
        + "\r\n";
  }

  private LaneRequestParser.Result parse(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
    return parser.parse(bytes, 0, bytes.length);
  }

  @Test
  void aPlainPublishHeadIsReadWithItsNamesTokenIdAndBodyBounds() {
    String head =
        publish(
            "authorization: Bearer abc\r\nX-REQUEST-ID: order-42\r\nContent-Type:"
                + " application/json\r\nContent-Length: 17\r\n");

    LaneRequestParser.Result result = parse(head + "{\"payload\": 1234}");

    assertThat(result.kind()).isEqualTo(Kind.HEAD);
    LaneHead read = result.head();
    assertThat(read.route()).isSameAs(PUBLISH);
    assertThat(read.namespace()).isEqualTo("shop");
    assertThat(read.name()).isEqualTo("orders");
    assertThat(read.authorization()).isEqualTo("Bearer abc");
    assertThat(read.requestId()).isEqualTo("order-42");
    assertThat(read.close()).isFalse();
    assertThat(read.bodyStart()).isEqualTo(head.length());
    assertThat(read.bodyLength()).isEqualTo(17);
  }

  @Test
  void aHeadIsReadWhereverItStartsInTheBuffer() {
    String before = "leftover of the request before";
    byte[] bytes =
        (before + publish("Content-Length: 2\r\n") + "{}").getBytes(StandardCharsets.ISO_8859_1);

    LaneRequestParser.Result result = parser.parse(bytes, before.length(), bytes.length);

    assertThat(result.kind()).isEqualTo(Kind.HEAD);
    assertThat(result.head().bodyEnd()).isEqualTo(bytes.length);
  }

  @Test
  void aHeadIsTakenBeforeItsBodyHasArrived() {
    assertThat(parse(publish("Content-Length: 500\r\n")).kind()).isEqualTo(Kind.HEAD);
  }

  @Test
  void connectionCloseIsNoted() {
    LaneRequestParser.Result result =
        parse(publish("Connection: keep-alive, Close\r\nContent-Length: 2\r\n") + "{}");

    assertThat(result.kind()).isEqualTo(Kind.HEAD);
    assertThat(result.head().close()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "POST /v1/queues/shop/orders/jobs HTTP/1.1\r",
        "POST /v1/queues/shop/orders/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n",
        "POST /v1/queues/shop/orders/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r",
      })
  void anUnfinishedHeadAsksForMore(String text) {
    assertThat(parse(text).kind()).isEqualTo(Kind.MORE);
  }

  @Test
  void aHeadLongerThanTheLimitIsHandedOver() {
    String filler = "X-Filler: " + "a".repeat(MAX_HEAD) + "\r\n";

    assertThat(parse(publish(filler + "Content-Length: 2\r\n")).kind()).isEqualTo(Kind.HAND_OVER);
    assertThat(parse(publish(filler).substring(0, MAX_HEAD)).kind())
        .as("unfinished, already too long")
        .isEqualTo(Kind.HAND_OVER);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "GET /v1/queues/shop/orders/jobs HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}",
        "POST /v1/queues/shop/orders/jobs HTTP/1.0\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}",
        "POST /v1/queues/shop/orders HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}",
        "POST /v1/queues/shop/orders/jobs?durable_replicas=1 HTTP/1.1\r\nHost: a\r\n"
            + "Content-Length: 2\r\n\r\n{}",
        "POST /v1/queues/shop/orders/jobs#x HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}",
        "POST /v1/queues/sh%6Fp/orders/jobs HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}",
        "POST /v1/queues/../orders/jobs HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}",
        "POST /v1/queues/shop/./jobs HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}",
        "POST http://a/v1/queues/shop/orders/jobs HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}",
        "POST  /v1/queues/shop/orders/jobs HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}",
        "POST /v1/queues/shop/orders/jobs HTTP/1.1\nHost: a\nContent-Length: 2\n\n{}",
        "POST /v1/queues/shop/orders/jobs HTTP/1.1\r\nHost: a\rContent-Length: 2\r\n\r\n{}",
        "POST /v1/queues/shop/orders/jobs HTTP/1.1\r\nHost: a\r\nX-Odd: a\u0001b\r\n"
            + "Content-Length: 2\r\n\r\n{}",
      })
  void aRequestLineOrLineEndingTheLaneDoesNotServeIsHandedOver(String text) {
    assertThat(parse(text).kind()).isEqualTo(Kind.HAND_OVER);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "Content-Length: 2\r\nContent-Length: 2\r\n",
        "Content-Length: 2\r\nTransfer-Encoding: chunked\r\n",
        "Transfer-Encoding: chunked\r\n",
        "Content-Length: +2\r\n",
        "Content-Length: 2, 2\r\n",
        "Content-Length: \r\n",
        "Content-Length: 1025\r\n",
        "Content-Length: 99999999999999999999\r\n",
        "",
        "Content-Length: 2\r\nExpect: 100-continue\r\n",
        "Content-Length: 2\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n",
        "Content-Length: 2\r\nConnection: keep-alive, TE\r\n",
        "Content-Length: 2\r\nX-Folded: a\r\n b\r\n",
        "Content-Length : 2\r\n",
        "Content-Length: 2\r\nAuthorization: Bearer a\r\nAuthorization: Bearer b\r\n",
        "Content-Length: 2\r\nX-Request-Id: a\r\nX-Request-Id: b\r\n",
        "Content-Length: 2\r\nHost: 127.0.0.2\r\n",
        "Content-Length: 2\r\n: no name\r\n",
      })
  void aHeaderTheLaneCannotBeSureOfIsHandedOver(String headerLines) {
    assertThat(parse(publish(headerLines) + "{}").kind()).isEqualTo(Kind.HAND_OVER);
  }

  @Test
  void aHeadWithoutHostIsHandedOver() {
    String head = "POST /v1/queues/shop/orders/jobs HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}";

    assertThat(parse(head).kind()).isEqualTo(Kind.HAND_OVER);
  }
}
