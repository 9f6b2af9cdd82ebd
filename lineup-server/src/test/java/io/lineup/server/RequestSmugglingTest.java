package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Requests made to be read two ways (CL.TE, TE.CL, obfuscated {@code Transfer-Encoding}, duplicate
 * or odd {@code Content-Length}, folded headers, bare LF, control characters, bad chunk sizes,
 * absolute-form targets), sent over a raw socket that is then half-closed, so that the server has
 * all the bytes and answers everything it reads as requests before it closes. Each carries a
 * second, smuggled publish where one parser or another could take it for a request of its own.
 *
 * <p>Each is refused as a whole (one answer, a 4xx, and no job published) or served as exactly one
 * request (one answer, one job, the first one's); never two. What counts is what happened, read
 * twice: the answers on the socket and the jobs in the queue.
 */
class RequestSmugglingTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  private static final String TOKEN = LineupServerExtension.ADMIN_TOKEN;

  /** Each case publishes to a queue of its own, so that its jobs are counted alone. */
  private static final AtomicInteger QUEUES = new AtomicInteger();

  /** What a case must come to. */
  enum Outcome {
    /** 400: refused, no job. */
    BAD_REQUEST(400),
    /** 413: the body is over the server's limit, no job. */
    TOO_LARGE(413),
    /** 414: the request target is over the head limit, no job. */
    URI_TOO_LONG(414),
    /** 431: the head is over its limit, no job. */
    HEAD_TOO_LARGE(431),
    /** 505: not an HTTP/1.1 request line, no job. */
    VERSION_NOT_SUPPORTED(505),
    /** 201: served as one request, one job (not the smuggled one). */
    ONE_REQUEST(201);

    final int status;

    Outcome(int status) {
      this.status = status;
    }
  }

  @BeforeAll
  static void namespace() {
    assertThat(server.admin().post("/v1/admin/namespaces", "{\"name\": \"shop\"}").status())
        .isEqualTo(201);
  }

  /** The body of a publish of one job. */
  private static String job(String id) {
    return "{\"id\":\"" + id + "\",\"payload\":1}";
  }

  /** The head of a publish to {@code queue}, up to the headers given (each ending in CRLF). */
  private static String head(String queue, String headers) {
    return "POST /v1/queues/shop/"
        + queue
        + "/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
        + TOKEN
        + "\r\nContent-Type: application/json\r\n"
        + headers
        + "\r\n";
  }

  /** A whole, well-formed publish of the job {@code id}. */
  private static String publish(String queue, String id) {
    String body = job(id);
    return head(queue, "Content-Length: " + body.length() + "\r\n") + body;
  }

  /** The smuggled request: a publish of the job {@code smuggled} to the same queue. */
  private static String smuggled(String queue) {
    return publish(queue, "smuggled");
  }

  /** One chunk of chunked transfer coding. */
  private static String chunk(String data) {
    return Integer.toHexString(data.length()) + "\r\n" + data + "\r\n";
  }

  private static final String LAST_CHUNK = "0\r\n\r\n";

  /** A case: what is sent (built for its queue) and what it must come to. */
  private interface Attack {
    String bytes(String queue);
  }

  private static Arguments attack(String name, Outcome outcome, Attack attack) {
    return Arguments.of(name, outcome, attack);
  }

  /**
   * A request with both framings (CL covering every byte, chunked ending early), the smuggled
   * request after the last chunk: whichever framing a parser took, one of them hides a request.
   */
  private static Attack bothFramings(String transferEncoding) {
    return q -> {
      String body = chunk(job("main")) + LAST_CHUNK + smuggled(q);
      return head(q, "Content-Length: " + body.length() + "\r\n" + transferEncoding) + body;
    };
  }

  /** A chunked request with this (perhaps obfuscated) framing and no Content-Length. */
  private static Attack chunkedOnly(String transferEncoding) {
    return q -> head(q, transferEncoding) + chunk(job("main")) + LAST_CHUNK;
  }

  /** A request with these Content-Length lines and the main job as its body, then the smuggled. */
  private static Attack lengths(String contentLengths) {
    return q -> head(q, contentLengths) + job("main") + smuggled(q);
  }

  /** A publish whose chunked body starts with this chunk-size line (CRLF added). */
  private static Attack chunkSize(String line) {
    return q ->
        head(q, "Transfer-Encoding: chunked\r\n")
            + line
            + "\r\n"
            + job("main")
            + "\r\n"
            + LAST_CHUNK
            + smuggled(q);
  }

  /** A publish with one more header line, then the smuggled request. */
  private static Attack withHeaderLine(String line) {
    return q -> {
      String body = job("main");
      return head(q, line + "Content-Length: " + body.length() + "\r\n") + body + smuggled(q);
    };
  }

  static Stream<Arguments> attacks() {
    int mainLength = job("main").length();
    return Stream.of(
        // CL.TE and TE.CL: both framings in one request.
        attack("CL.TE", Outcome.BAD_REQUEST, bothFramings("Transfer-Encoding: chunked\r\n")),
        attack(
            "TE.CL",
            Outcome.BAD_REQUEST,
            q -> {
              String body = chunk(smuggled(q)) + LAST_CHUNK;
              return head(q, "Transfer-Encoding: chunked\r\nContent-Length: 4\r\n") + body;
            }),
        // TE.TE: an obfuscated Transfer-Encoding beside a Content-Length.
        attack("TE xchunked", Outcome.BAD_REQUEST, bothFramings("Transfer-Encoding: xchunked\r\n")),
        attack(
            "TE with leading space",
            Outcome.BAD_REQUEST,
            bothFramings("Transfer-Encoding:  chunked\r\n")),
        attack(
            "TE chunked, identity",
            Outcome.BAD_REQUEST,
            bothFramings("Transfer-Encoding: chunked, identity\r\n")),
        attack(
            "TE after a tab", Outcome.BAD_REQUEST, bothFramings("Transfer-Encoding:\tchunked\r\n")),
        attack("TE uppercase", Outcome.BAD_REQUEST, bothFramings("TRANSFER-ENCODING: CHUNKED\r\n")),
        attack(
            "TE twice",
            Outcome.BAD_REQUEST,
            bothFramings("Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n")),
        attack(
            "TE then TE x",
            Outcome.BAD_REQUEST,
            bothFramings("Transfer-Encoding: chunked\r\nTransfer-Encoding: x\r\n")),
        attack(
            "TE name with space before colon",
            Outcome.BAD_REQUEST,
            bothFramings("Transfer-Encoding : chunked\r\n")),
        attack(
            "TE folded onto another header",
            Outcome.BAD_REQUEST,
            bothFramings("X-Note: a\r\n Transfer-Encoding: chunked\r\n")),
        attack(
            "TE with a vertical tab",
            Outcome.BAD_REQUEST,
            bothFramings("Transfer-Encoding:\u000bchunked\r\n")),
        // A Transfer-Encoding alone: one request when it says chunked last, else refused.
        attack(
            "TE alone, uppercase",
            Outcome.ONE_REQUEST,
            chunkedOnly("Transfer-Encoding: CHUNKED\r\n")),
        attack(
            "TE alone, after a tab",
            Outcome.ONE_REQUEST,
            chunkedOnly("Transfer-Encoding:\tchunked\r\n")),
        attack(
            "TE alone, xchunked",
            Outcome.BAD_REQUEST,
            chunkedOnly("Transfer-Encoding: xchunked\r\n")),
        attack(
            "TE alone, chunked, identity",
            Outcome.BAD_REQUEST,
            chunkedOnly("Transfer-Encoding: chunked, identity\r\n")),
        attack(
            "TE alone, chunked twice",
            Outcome.BAD_REQUEST,
            chunkedOnly("Transfer-Encoding: chunked, chunked\r\n")),
        attack(
            "TE alone, identity",
            Outcome.BAD_REQUEST,
            chunkedOnly("Transfer-Encoding: identity\r\n")),
        // Content-Length: duplicated, listed, signed, spaced, padded, huge.
        attack(
            "two equal Content-Lengths",
            Outcome.BAD_REQUEST,
            lengths(
                "Content-Length: " + mainLength + "\r\nContent-Length: " + mainLength + "\r\n")),
        attack(
            "two different Content-Lengths",
            Outcome.BAD_REQUEST,
            q ->
                lengths(
                        "Content-Length: "
                            + mainLength
                            + "\r\nContent-Length: "
                            + (mainLength + smuggled(q).length())
                            + "\r\n")
                    .bytes(q)),
        attack(
            "a listed Content-Length",
            Outcome.BAD_REQUEST,
            lengths("Content-Length: " + mainLength + ", " + mainLength + "\r\n")),
        attack(
            "a plus sign", Outcome.BAD_REQUEST, lengths("Content-Length: +" + mainLength + "\r\n")),
        attack(
            "a minus sign",
            Outcome.BAD_REQUEST,
            lengths("Content-Length: -" + mainLength + "\r\n")),
        attack(
            "a space inside the number",
            Outcome.BAD_REQUEST,
            lengths("Content-Length: " + mainLength / 10 + " " + mainLength % 10 + "\r\n")),
        attack("hexadecimal", Outcome.BAD_REQUEST, lengths("Content-Length: 0x2a\r\n")),
        attack(
            "leading zeros",
            Outcome.ONE_REQUEST,
            q -> head(q, "Content-Length: 000" + mainLength + "\r\n") + job("main")),
        attack(
            "space around the number",
            Outcome.ONE_REQUEST,
            q -> head(q, "Content-Length:   " + mainLength + "  \r\n") + job("main")),
        attack(
            "a length past a long's range",
            Outcome.BAD_REQUEST,
            lengths("Content-Length: 99999999999999999999999\r\n")),
        attack(
            "a length over the body limit",
            Outcome.TOO_LARGE,
            lengths("Content-Length: 999999999\r\n")),
        // Folded, bare-LF and control-character heads.
        attack("obs-fold", Outcome.BAD_REQUEST, withHeaderLine("X-Note: a\r\n b\r\n")),
        attack(
            "a Content-Length folded into a longer one",
            Outcome.BAD_REQUEST,
            q ->
                head(q, "Content-Length: " + mainLength / 10 + "\r\n " + mainLength % 10 + "\r\n")
                    + job("main")
                    + smuggled(q)),
        attack(
            "bare LF line endings",
            Outcome.BAD_REQUEST,
            q -> publish(q, "main").replace("\r\n", "\n") + smuggled(q)),
        attack("one bare LF", Outcome.BAD_REQUEST, withHeaderLine("X-Note: a\nX-Other: b\r\n")),
        attack("a bare CR", Outcome.BAD_REQUEST, withHeaderLine("X-Note: a\rX-Other: b\r\n")),
        attack("NUL in a value", Outcome.BAD_REQUEST, withHeaderLine("X-Note: a\u0000b\r\n")),
        attack("NUL in a name", Outcome.BAD_REQUEST, withHeaderLine("X-No\u0000te: a\r\n")),
        attack(
            "a control character in a value",
            Outcome.BAD_REQUEST,
            withHeaderLine("X-Note: a\u0001b\r\n")),
        attack("DEL in a value", Outcome.BAD_REQUEST, withHeaderLine("X-Note: a\u007fb\r\n")),
        attack("a space in a name", Outcome.BAD_REQUEST, withHeaderLine("X Note: a\r\n")),
        attack("no colon", Outcome.BAD_REQUEST, withHeaderLine("X-Note a\r\n")),
        attack("two Hosts", Outcome.BAD_REQUEST, withHeaderLine("Host: other.example\r\n")),
        // Chunk sizes.
        attack(
            "a chunk size past a long's range",
            Outcome.BAD_REQUEST,
            chunkSize("1FFFFFFFFFFFFFFFF")),
        attack("a chunk size past an int's range", Outcome.BAD_REQUEST, chunkSize("FFFFFFFFF")),
        attack("a chunk size 0x", Outcome.BAD_REQUEST, chunkSize("0x14")),
        attack("a negative chunk size", Outcome.BAD_REQUEST, chunkSize("-14")),
        attack("a chunk size with a space before it", Outcome.BAD_REQUEST, chunkSize(" 14")),
        attack("an empty chunk size", Outcome.BAD_REQUEST, chunkSize("")),
        attack(
            "a chunk size line terminated by bare LF",
            Outcome.BAD_REQUEST,
            q ->
                head(q, "Transfer-Encoding: chunked\r\n")
                    + Integer.toHexString(mainLength)
                    + "\n"
                    + job("main")
                    + "\r\n"
                    + LAST_CHUNK
                    + smuggled(q)),
        attack(
            "a chunk longer than its size",
            Outcome.BAD_REQUEST,
            q ->
                head(q, "Transfer-Encoding: chunked\r\n")
                    + "4\r\n"
                    + job("main")
                    + "\r\n"
                    + LAST_CHUNK
                    + smuggled(q)),
        attack(
            "a chunk extension of 64 KiB",
            Outcome.BAD_REQUEST,
            chunkSize(Integer.toHexString(mainLength) + ";" + "a=b;".repeat(16 * 1024) + "c=d")),
        attack(
            "a chunk extension",
            Outcome.ONE_REQUEST,
            q ->
                head(q, "Transfer-Encoding: chunked\r\n")
                    + Integer.toHexString(mainLength)
                    + ";name=value\r\n"
                    + job("main")
                    + "\r\n"
                    + LAST_CHUNK),
        // Request targets and heads over their limits.
        attack(
            "absolute-form to another host",
            Outcome.BAD_REQUEST,
            q ->
                publish(q, "main").replaceFirst("POST /", "POST http://other.example/")
                    + smuggled(q)),
        attack(
            "absolute-form naming this server",
            Outcome.ONE_REQUEST,
            q -> publish(q, "main").replaceFirst("POST /", "POST http://127.0.0.1/")),
        attack(
            "a target over the head limit",
            Outcome.URI_TOO_LONG,
            q ->
                publish(q, "main").replaceFirst(" HTTP/1.1", "?x=" + "a".repeat(9000) + " HTTP/1.1")
                    + smuggled(q)),
        attack(
            "a header over the head limit",
            Outcome.HEAD_TOO_LARGE,
            withHeaderLine("X-Note: " + "a".repeat(9000) + "\r\n")),
        attack(
            "HTTP/0.9 style request line",
            Outcome.VERSION_NOT_SUPPORTED,
            q -> "POST /v1/queues/shop/" + q + "/jobs\r\n" + smuggled(q)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("attacks")
  void aRequestReadableTwoWaysIsRefusedOrServedAsOneRequestNeverTwo(
      String name, Outcome outcome, Attack attack) {
    String queue = "smuggle-" + QUEUES.incrementAndGet();
    List<String> answers;
    try (RawHttp http = RawHttp.connect(server.port())) {
      answers = http.sendAll(attack.bytes(queue)).answersUntilClosed();
    }

    assertThat(answers).as(name + ": answers on the socket").hasSize(1);
    assertThat(answers.get(0)).as(name).startsWith("HTTP/1.1 " + outcome.status + " ");
    if (outcome == Outcome.ONE_REQUEST) {
      assertThat(jobIds(queue)).as(name + ": jobs published").containsExactly("main");
    } else {
      assertThat(answers.get(0)).as(name).containsIgnoringCase("Connection: close");
      assertThat(jobIds(queue)).as(name + ": jobs published").isEmpty();
    }
  }

  @Test
  void aRequestPipelinedAfterAMalformedOneIsNeverExecuted() {
    String queue = "smuggle-pipelined";
    List<String> answers;
    try (RawHttp http = RawHttp.connect(server.port())) {
      answers =
          http.sendAll(
                  head(queue, "Content-Length: 2\r\nX-Note: a\r\n folded\r\n")
                      + "{}"
                      + publish(queue, "after-error-1")
                      + publish(queue, "after-error-2"))
              .answersUntilClosed();
    }

    assertThat(answers).hasSize(1);
    assertThat(answers.get(0))
        .startsWith("HTTP/1.1 400 ")
        .containsIgnoringCase("Connection: close");
    assertThat(jobIds(queue)).isEmpty();
  }

  @Test
  void aRequestPipelinedAfterAWellFormedOneIsServedInOrder() {
    String queue = "smuggle-control";
    List<String> answers;
    try (RawHttp http = RawHttp.connect(server.port())) {
      answers =
          http.sendAll(publish(queue, "first") + publish(queue, "second")).answersUntilClosed();
    }

    assertThat(answers).hasSize(2);
    assertThat(answers).allSatisfy(answer -> assertThat(answer).startsWith("HTTP/1.1 201 "));
    assertThat(jobIds(queue)).containsExactly("first", "second");
  }

  @Test
  void aGetWhoseBodyHoldsARequestIsOneRequest() {
    String queue = "smuggle-get";
    List<String> answers;
    try (RawHttp http = RawHttp.connect(server.port())) {
      String body = publish(queue, "in-a-body");
      answers =
          http.sendAll(
                  "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: "
                      + body.length()
                      + "\r\n\r\n"
                      + body)
              .answersUntilClosed();
    }

    assertThat(answers).hasSize(1);
    assertThat(answers.get(0)).startsWith("HTTP/1.1 200 ");
    assertThat(jobIds(queue)).isEmpty();
  }

  /** Which of the ids the cases use are jobs of the queue, in the order of that list. */
  private static List<String> jobIds(String queue) {
    List<String> ids = new ArrayList<>();
    for (String id :
        List.of(
            "main", "smuggled", "after-error-1", "after-error-2", "first", "second", "in-a-body")) {
      Reply reply = server.admin().get("/v1/queues/shop/" + queue + "/jobs/" + id);
      if (reply.status() == 200) {
        ids.add(id);
      } else {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(404);
      }
    }
    return ids;
  }
}
