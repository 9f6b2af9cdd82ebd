package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.core.model.QueueSetting;
import io.lineup.server.http.Json;
import io.lineup.server.http.RequestBody;
import io.lineup.testing.RedisServerExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every route refuses bad input with the documented 4xx and the JSON error shape, and writes
 * nothing to Redis: the dataset digest ({@code DEBUG DIGEST}) is the same before and after.
 */
class BadInputTest {
  static final String Q = "/v1/queues/bad/q";
  static final String JOB = Q + "/jobs/some-job";

  @RegisterExtension
  static LineupServerExtension server =
      LineupServerExtension.on(
          RedisServerExtension.withDefaults().setting("enable-debug-command", "local"));

  static Api admin;
  static String publishOnlyToken;

  @BeforeAll
  static void start() {
    admin = server.admin();
    // The dataset digest needs a Redis nobody else writes to: stop the history sampler, the one
    // background writer of a server without endpoints or rooms.
    server.running().history().close();
    assertThat(admin.post("/v1/admin/namespaces", "{\"name\": \"bad\"}").status()).isEqualTo(201);
    publishOnlyToken =
        admin
            .post(
                "/v1/admin/tokens",
                "{\"namespace\": \"bad\", \"scopes\": [\"publish\"], \"max_priority\": 5}")
            .field("token");
    // A queue with a waiting job, so the routes that need one have it.
    assertThat(admin.post(Q + "/jobs", "{\"payload\": 1, \"id\": \"some-job\"}").status())
        .isEqualTo(201);
  }

  static Stream<BadInput> badInputs() {
    String jobs = Q + "/jobs";
    String leases = Q + "/leases";
    List<BadInput> cases = new ArrayList<>();
    // Publish: body shape
    cases.add(BadInput.post(jobs, "").answers(400, "invalid_json", null));
    cases.add(BadInput.post(jobs, "{\"payload\": ").answers(400, "invalid_json", null));
    cases.add(BadInput.post(jobs, "{\"payload\": 1} trailing").answers(400, "invalid_json", null));
    cases.add(
        BadInput.post(jobs, "{\"payload\": 1, \"payload\": 2}").answers(400, "invalid_json", null));
    cases.add(BadInput.post(jobs, "\"just a string\"").answers(400, "invalid_json", null));
    cases.add(BadInput.post(jobs, "[]").answers(400, "invalid_field", "jobs"));
    cases.add(BadInput.post(jobs, bulk(1001)).answers(400, "invalid_field", "jobs"));
    cases.add(BadInput.post(jobs, "[1]").answers(400, "invalid_field", "jobs[0]"));
    cases.add(BadInput.post(jobs, nested(300)).answers(400, "invalid_json", null));
    // Publish: fields
    cases.add(
        BadInput.post(jobs, "{\"payload\": 1, \"colour\": \"red\"}")
            .answers(400, "unknown_field", "colour"));
    cases.add(BadInput.post(jobs, "{}").answers(400, "invalid_field", "payload"));
    cases.add(
        BadInput.post(jobs, "{\"payload\": 1, \"payload_base64\": \"AA==\"}")
            .answers(400, "invalid_field", "payload_base64"));
    cases.add(
        BadInput.post(jobs, "{\"payload_base64\": \"not base64!\"}")
            .answers(400, "invalid_field", "payload_base64"));
    cases.add(
        BadInput.post(jobs, "{\"payload\": 1, \"priority\": \"high\"}")
            .answers(400, "invalid_field", "priority"));
    cases.add(
        BadInput.post(jobs, "{\"payload\": 1, \"priority\": 256}")
            .answers(400, "invalid_field", "priority"));
    cases.add(
        BadInput.post(jobs, "{\"payload\": 1, \"priority\": 1.5}")
            .answers(400, "invalid_field", "priority"));
    cases.add(
        BadInput.post(jobs, "{\"payload\": 1, \"delay_ms\": 99999999999999999999999999999}")
            .answers(400, "invalid_field", "delay_ms"));
    cases.add(
        BadInput.post(jobs, "{\"payload\": 1, \"delay_ms\": -1}")
            .answers(400, "invalid_field", "delay_ms"));
    cases.add(
        BadInput.post(jobs, "{\"payload\": 1, \"delay_ms\": 1e400}")
            .answers(400, "invalid_field", "delay_ms"));
    cases.add(
        BadInput.post(jobs, "{\"payload\": 1, \"delay_ms\": 10, \"run_at\": 1}")
            .answers(400, "invalid_field", "run_at"));
    cases.add(
        BadInput.post(jobs, "{\"payload\": 1, \"run_at\": 32503680000000}")
            .answers(400, "invalid_field", "run_at"));
    cases.add(
        BadInput.post(jobs, "{\"payload\": 1, \"ttr_ms\": 50}")
            .answers(400, "invalid_field", "ttr_ms"));
    cases.add(
        BadInput.post(jobs, "{\"payload\": 1, \"max_attempts\": 0}")
            .answers(400, "invalid_field", "max_attempts"));
    cases.add(
        BadInput.post(jobs, "{\"payload\": 1, \"ttl_ms\": 0}")
            .answers(400, "invalid_field", "ttl_ms"));
    cases.add(
        BadInput.post(jobs, "{\"payload\": 1, \"id\": \"has space\"}")
            .answers(400, "invalid_field", "id"));
    cases.add(
        BadInput.post(jobs, "{\"payload\": 1, \"id\": \"" + "x".repeat(129) + "\"}")
            .answers(400, "invalid_field", "id"));
    cases.add(
        BadInput.post(jobs, "{\"payload\": 1, \"unique_key\": \"k\"}")
            .answers(400, "invalid_field", "unique_window_ms"));
    cases.add(
        BadInput.post(jobs, "{\"payload\": 1, \"unique_window_ms\": 1000}")
            .answers(400, "invalid_field", "unique_key"));
    cases.add(
        BadInput.post(jobs, "[{\"payload\": 1}, {\"payload\": 2, \"priority\": 999}]")
            .answers(400, "invalid_field", "jobs[1].priority"));
    cases.add(
        BadInput.post(jobs, "{\"payload\": \"" + "x".repeat(1024 * 1024 + 1) + "\"}")
            .answers(413, "payload_too_large", "payload"));
    cases.add(
        BadInput.post(jobs, "{\"payload\": 1, \"priority\": 6}")
            .withToken(publishOnlyToken)
            .answers(403, "priority_not_allowed", "priority"));
    // Path names
    cases.add(
        BadInput.post("/v1/queues/b@d/q/jobs", "{\"payload\": 1}")
            .answers(400, "invalid_name", "namespace"));
    cases.add(
        BadInput.post("/v1/queues/bad/" + "q".repeat(65) + "/jobs", "{\"payload\": 1}")
            .answers(400, "invalid_name", "queue"));
    cases.add(BadInput.get(Q + "/jobs/bad!id").answers(400, "invalid_name", "id"));
    cases.add(BadInput.delete(Q + "/jobs/" + "j".repeat(129)).answers(400, "invalid_name", "id"));
    cases.add(
        BadInput.post(Q + "/jobs/has%20space/ack", "{\"token\": \"t\"}")
            .answers(400, "invalid_name", "id"));
    // Lease
    cases.add(BadInput.post(leases, "{\"count\": 0}").answers(400, "invalid_field", "count"));
    cases.add(BadInput.post(leases, "{\"count\": 1001}").answers(400, "invalid_field", "count"));
    cases.add(
        BadInput.post(leases, "{\"wait_ms\": 300001}").answers(400, "invalid_field", "wait_ms"));
    cases.add(
        BadInput.post(leases, "{\"wait_ms\": \"10\"}").answers(400, "invalid_field", "wait_ms"));
    cases.add(
        BadInput.post(leases, "{\"count\": 1, \"visibility\": 3}")
            .answers(400, "unknown_field", "visibility"));
    cases.add(BadInput.post(leases, "[1, 2]").answers(400, "invalid_json", null));
    cases.add(
        BadInput.post("/v1/queues/bad/" + "q,".repeat(16) + "q/leases", "{}")
            .answers(400, "invalid_name", "queue"));
    cases.add(
        BadInput.post("/v1/queues/bad/q,,r/leases", "{}").answers(400, "invalid_name", "queue"));
    // Ack, nack, extend
    cases.add(BadInput.post(JOB + "/ack", "{}").answers(400, "invalid_field", "token"));
    cases.add(
        BadInput.post(JOB + "/ack", "{\"token\": 12}").answers(400, "invalid_field", "token"));
    cases.add(
        BadInput.post(JOB + "/ack", "{\"token\": \"" + "t".repeat(65) + "\"}")
            .answers(400, "invalid_field", "token"));
    cases.add(
        BadInput.post(
                JOB + "/ack", "{\"token\": \"t\", \"result\": \"" + "r".repeat(1024 * 1024) + "\"}")
            .answers(413, "payload_too_large", "result"));
    cases.add(
        BadInput.post(JOB + "/nack", "{\"token\": \"t\", \"retry_delay_ms\": -5}")
            .answers(400, "invalid_field", "retry_delay_ms"));
    cases.add(
        BadInput.post(JOB + "/nack", "{\"token\": \"t\", \"error\": {\"code\": 1}}")
            .answers(400, "invalid_field", "error"));
    cases.add(
        BadInput.post(JOB + "/extend", "{\"token\": \"t\", \"ttr_ms\": 99}")
            .answers(400, "invalid_field", "ttr_ms"));
    cases.add(BadInput.post(JOB + "/extend", "not json").answers(400, "invalid_json", null));
    // Queue settings
    cases.add(BadInput.patch(Q, "{}").answers(400, "invalid_field", null));
    cases.add(
        BadInput.patch(Q, "{\"rate_limit\": -1}").answers(400, "invalid_field", "rate_limit"));
    cases.add(BadInput.patch(Q, "{\"paused\": \"yes\"}").answers(400, "invalid_field", "paused"));
    cases.add(
        BadInput.patch(Q, "{\"concurrency_limit\": 1000000000000}")
            .answers(400, "invalid_field", "concurrency_limit"));
    cases.add(
        BadInput.patch(Q, "{\"backoff\": {\"kind\": \"linear\"}}")
            .answers(400, "invalid_field", "backoff.kind"));
    cases.add(
        BadInput.patch(Q, "{\"backoff\": {\"jitter\": 2}}")
            .answers(400, "invalid_field", "backoff.jitter"));
    cases.add(
        BadInput.patch(Q, "{\"backoff\": {\"factor\": 2}}")
            .answers(400, "unknown_field", "backoff.factor"));
    cases.add(BadInput.patch(Q, "{\"backoff\": 5}").answers(400, "invalid_field", "backoff"));
    cases.add(BadInput.patch(Q, "{\"paused\": null}").answers(400, "invalid_field", null));
    cases.add(BadInput.patch(Q, "{\"backoff\": {}}").answers(400, "invalid_field", null));
    // Every setting just outside its range or of another JSON type, named by its JSON path
    for (QueueSetting setting : QueueSetting.values()) {
      for (String value : badValues(setting)) {
        cases.add(
            BadInput.patch(Q, settingBody(setting, value))
                .answers(400, "invalid_field", setting.jsonPath()));
      }
    }
    // Dead letters
    cases.add(BadInput.get(Q + "/dead?count=0").answers(400, "invalid_field", "count"));
    cases.add(BadInput.get(Q + "/dead?offset=-1").answers(400, "invalid_field", "offset"));
    cases.add(BadInput.get(Q + "/dead?count=abc").answers(400, "invalid_field", "count"));
    cases.add(
        BadInput.post(Q + "/dead/respawn", "{\"ids\": [\"a\"], \"all\": true}")
            .answers(400, "invalid_field", "ids"));
    cases.add(
        BadInput.post(Q + "/dead/respawn", "{\"ids\": \"a\"}")
            .answers(400, "invalid_field", "ids"));
    cases.add(
        BadInput.post(Q + "/dead/respawn", "{\"count\": 0}")
            .answers(400, "invalid_field", "count"));
    cases.add(
        BadInput.post(Q + "/dead/respawn", "{\"ids\": [\"ok\", \"a b\"]}")
            .answers(400, "invalid_field", "ids[1]"));
    // Stored bytes: how answers carry them
    cases.add(
        BadInput.get(JOB + "?payload_encoding=hex")
            .answers(400, "invalid_field", "payload_encoding"));
    cases.add(
        BadInput.post(leases + "?payload_encoding=xml", "{}")
            .answers(400, "invalid_field", "payload_encoding"));
    // Names made only of dots, which clients resolve away
    cases.add(
        BadInput.post("/v1/queues/%2E%2E/q/jobs", "{\"payload\": 1}")
            .answers(400, "invalid_name", "namespace"));
    cases.add(
        BadInput.post("/v1/queues/bad/%2E/jobs", "{\"payload\": 1}")
            .answers(400, "invalid_name", "queue"));
    cases.add(
        BadInput.post("/v1/admin/namespaces", "{\"name\": \"..\"}")
            .answers(400, "invalid_field", "name"));
    cases.add(
        BadInput.post("/v1/admin/tokens", "{\"namespace\": \"...\", \"scopes\": [\"publish\"]}")
            .answers(400, "invalid_field", "namespace"));
    // Trailing slashes do not reach the routes
    cases.add(BadInput.post(jobs + "/", "{\"payload\": 1}").answers(404, "not_found", null));
    cases.add(BadInput.get("/v1/queues/").answers(404, "not_found", null));
    cases.add(BadInput.send("PATCH", Q + "/").answers(404, "not_found", null));
    // Admin
    cases.add(
        BadInput.post("/v1/admin/namespaces", "{\"name\": \"a/b\"}")
            .answers(400, "invalid_field", "name"));
    cases.add(
        BadInput.post("/v1/admin/namespaces", "{\"name\": \"ok\", \"owner\": \"me\"}")
            .answers(400, "unknown_field", "owner"));
    cases.add(
        BadInput.post("/v1/admin/tokens", "{\"namespace\": \"bad\", \"scopes\": [\"fly\"]}")
            .answers(400, "invalid_field", "scopes[0]"));
    cases.add(
        BadInput.post("/v1/admin/tokens", "{\"namespace\": \"bad\"}")
            .answers(400, "invalid_field", "scopes"));
    cases.add(
        BadInput.post(
                "/v1/admin/tokens",
                "{\"namespace\": \"bad\", \"scopes\": [\"publish\"], \"max_priority\": 300}")
            .answers(400, "invalid_field", "max_priority"));
    cases.add(BadInput.delete("/v1/admin/tokens/xyz").answers(400, "invalid_name", "id"));
    cases.add(
        BadInput.get("/v1/admin/tokens?namespace=bad!").answers(400, "invalid_field", "namespace"));
    cases.add(
        BadInput.delete("/v1/admin/namespaces/b@d").answers(400, "invalid_name", "namespace"));
    // Queue routes without a body: bad names
    cases.add(BadInput.get("/v1/queues/bad/q!x").answers(400, "invalid_name", "queue"));
    cases.add(
        BadInput.patch("/v1/queues/bad/q!x", "{\"paused\": true}")
            .answers(400, "invalid_name", "queue"));
    cases.add(BadInput.delete("/v1/queues/bad/q!x/dead").answers(400, "invalid_name", "queue"));
    cases.add(BadInput.get("/v1/queues/n%20s/q/dead").answers(400, "invalid_name", "namespace"));
    // Routing, and routes that take no input at all: the wrong method
    cases.add(BadInput.get("/v1/nothing-here").answers(404, "not_found", null));
    cases.add(BadInput.send("PUT", "/v1/queues").answers(405, "method_not_allowed", null));
    cases.add(
        BadInput.send("PUT", "/v1/admin/namespaces").answers(405, "method_not_allowed", null));
    cases.add(BadInput.send("PATCH", "/v1/admin/tokens").answers(405, "method_not_allowed", null));
    cases.add(BadInput.send("POST", "/metrics").answers(405, "method_not_allowed", null));
    cases.add(BadInput.send("DELETE", "/ready").answers(405, "method_not_allowed", null));
    cases.add(BadInput.send("POST", "/openapi.json").answers(405, "method_not_allowed", null));
    cases.add(BadInput.send("PUT", jobs).answers(405, "method_not_allowed", null));
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badInputs")
  void badInputIsRefusedWithItsErrorAndWritesNothing(BadInput input) {
    String before = digest();
    Api api = input.token() == null ? admin : admin.as(input.token());
    Reply reply = api.send(input.method(), input.path(), input.body());

    assertThat(reply.status()).as(reply.toString()).isEqualTo(input.status());
    assertErrorShape(reply, input.error(), input.field());
    assertThat(digest()).as("the Redis dataset after the request").isEqualTo(before);
  }

  @Test
  void everySettingAtEitherEndOfItsRangeIsAcceptedAndReadBack() throws IOException {
    for (boolean highest : List.of(true, false)) {
      ObjectNode body = Json.object();
      for (QueueSetting setting : QueueSetting.values()) {
        ObjectNode target = body;
        if (setting.group() != null) {
          target =
              body.has(setting.group())
                  ? (ObjectNode) body.get(setting.group())
                  : body.putObject(setting.group());
        }
        switch (setting.type()) {
          case BOOLEAN -> target.put(setting.jsonName(), highest);
          case INTEGER, MILLIS ->
              target.put(setting.jsonName(), highest ? setting.max() : setting.min());
          case FRACTION ->
              target.put(setting.jsonName(), (double) (highest ? setting.max() : setting.min()));
          case CHOICE ->
              target.put(
                  setting.jsonName(),
                  setting.choices().get(highest ? setting.choices().size() - 1 : 0));
        }
      }
      Reply reply = admin.patch(Q + "-bounds", body.toString());

      assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
      assertThat(reply.json().get("settings"))
          .isEqualTo(Json.parse(body.toString().getBytes(StandardCharsets.UTF_8)));
    }
  }

  @Test
  void aWrongMethodNamesTheAllowedOnes() {
    Reply reply = admin.send("PUT", "/health", null);
    assertThat(reply.status()).isEqualTo(405);
    assertThat(reply.header("Allow")).isEqualTo("GET");
  }

  @Test
  void theDigestCheckNoticesAWrite() {
    String before = digest();
    assertThat(admin.post(Q + "/jobs", "{\"payload\": 2}").status()).isEqualTo(201);
    assertThat(digest()).isNotEqualTo(before);
  }

  @Test
  void aBodyOverTheBodyLimitIsRefusedWith413() {
    String before = digest();
    // The server refuses by the declared length, before reading the body. The request declares one
    // byte over the limit and sends no body, so nothing is left unread when the server closes; a
    // client still writing a large body could see that close before the answer.
    int limit = RequestBody.limitFor(io.lineup.core.model.Limits.DEFAULT_MAX_PAYLOAD_BYTES);
    try (RawHttp http = RawHttp.connect(server.port())) {
      String answer =
          http.postHeadersOnly(Q + "/jobs", LineupServerExtension.ADMIN_TOKEN, limit + 1L)
              .readAll();
      assertThat(answer).startsWith("HTTP/1.1 413");
      assertThat(answer).contains("\"error\":\"body_too_large\"");
    }
    assertThat(digest()).isEqualTo(before);
  }

  @Test
  void aMalformedRequestLineGetsAJsonError() {
    try (RawHttp http = RawHttp.connect(server.port())) {
      String answer = http.send("GARBAGE\r\n\r\n").readAll();
      assertThat(answer).startsWith("HTTP/1.1 400");
      assertThat(answer).contains("application/json").contains("\"error\":\"bad_request\"");
    }
  }

  @Test
  void headersOverJettysLimitGetAJsonError() {
    try (RawHttp http = RawHttp.connect(server.port())) {
      String answer =
          http.send("GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(20_000) + "\r\n\r\n")
              .readAll();
      assertThat(answer).startsWith("HTTP/1.1 431");
      assertThat(answer).contains("\"error\":\"headers_too_large\"");
    }
  }

  @Test
  void aTrailingSlashIsANotFoundThatSaysSo() {
    Reply reply = admin.post(Q + "/jobs/", "{\"payload\": 1}");
    assertThat(reply.status()).isEqualTo(404);
    assertThat(reply.field("message")).contains("do not end with a slash").contains(Q + "/jobs)");
  }

  @ParameterizedTest(name = "bytes {0}")
  @ValueSource(
      strings = {
        "C0 AF", // '/' in two bytes (overlong)
        "E0 80 AF", // '/' in three bytes (overlong)
        "F0 80 80 AF", // '/' in four bytes (overlong)
        "C1 BF", // a lead byte that is always overlong
        "ED A0 80", // a UTF-16 surrogate
        "F4 90 80 80", // beyond U+10FFFF
        "80", // a continuation byte without a lead
        "E2 82" // cut short
      })
  void aBodyThatIsNotWellFormedUtf8IsRefusedAsInvalidJson(String hex) {
    StringBuilder bytes = new StringBuilder();
    for (String part : hex.split(" ")) {
      bytes.append((char) Integer.parseInt(part, 16));
    }
    String body = "{\"payload\": \"a" + bytes + "b\"}";
    String before = digest();
    try (RawHttp http = RawHttp.connect(server.port())) {
      String answer =
          http.send(
                  "POST "
                      + Q
                      + "/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                      + LineupServerExtension.ADMIN_TOKEN
                      + "\r\nContent-Type: application/json\r\nContent-Length: "
                      + body.length()
                      + "\r\n\r\n"
                      + body)
              .readAll();
      assertThat(answer).startsWith("HTTP/1.1 400");
      assertThat(answer).contains("\"error\":\"invalid_json\"").contains("not well-formed UTF-8");
    }
    assertThat(digest()).isEqualTo(before);
  }

  @Test
  void wellFormedMultiByteUtf8IsAccepted() {
    Reply published = admin.post(Q + "/jobs", "{\"payload\": \"caf\u00e9 \u20ac \ud83d\ude00\"}");
    assertThat(published.status()).isEqualTo(201);
    Reply job = admin.get(Q + "/jobs/" + published.field("id"));
    assertThat(job.json().get("payload").asText()).isEqualTo("caf\u00e9 \u20ac \ud83d\ude00");
  }

  @Test
  void aDotDotSegmentSentAsItIsNamesNoQueue() {
    String before = digest();
    try (RawHttp http = RawHttp.connect(server.port())) {
      String answer =
          http.post("/v1/queues/../q1/jobs", LineupServerExtension.ADMIN_TOKEN, "{\"payload\": 1}")
              .readAll();
      assertThat(answer).startsWith("HTTP/1.1 4");
      assertThat(answer).contains("application/json").doesNotContain("\"created\"");
    }
    assertThat(digest()).isEqualTo(before);
  }

  @Test
  void anInvalidJsonMessageSaysWhereButNotHowTheParserIsConfigured() {
    Reply reply = admin.post(Q + "/jobs", "[1, 2");
    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.field("error")).isEqualTo("invalid_json");
    assertThat(reply.field("message"))
        .contains("line 1")
        .doesNotContain("Source")
        .doesNotContain("REDACTED")
        .doesNotContain("StreamReadFeature");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "GET /health HTTP/9.9\r\nHost: x\r\n\r\n",
        "GET /health\r\n\r\n",
        "GET  HTTP/1.1\r\nHost: x\r\n\r\n"
      })
  void anHttpVersionJettyRefusesIsA505WithItsOwnCode(String request) {
    assertRawAnswerIsAJsonError(request, 505, "http_version_not_supported");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "CONNECT * HTTP/1.1\r\nHost: x\r\n\r\n",
        "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
        "CONNECT /v1/queues HTTP/1.1\r\nHost: x\r\n\r\n",
        "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET * HTTP/1.1\r\nHost: x\r\n\r\n"
      })
  void aRequestNoRouteCanServeGetsAJsonErrorWithARequestId(String request) {
    assertRawAnswerIsAJsonError(request, 400, "bad_request");
  }

  // OPTIONS * passes Jetty's own checks and is refused by the server's guard; a malformed path and
  // CONNECT with a path are refused by Jetty, whose error page the server writes. All before the
  // body.
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"OPTIONS *", "POST /v1/queues/a%zz/jobs", "CONNECT /v1/queues"})
  void aRequestNoRouteCanServeSentBeforeItsBodySaysTheConnectionCloses(String requestLine) {
    try (RawHttp http = RawHttp.connect(server.port())) {
      String answer =
          http.send(requestLine + " HTTP/1.1\r\nHost: x\r\nContent-Length: 14\r\n\r\n").readAll();

      assertThat(answer).startsWith("HTTP/1.1 400").contains("\"error\":\"bad_request\"");
      assertThat(answer).containsIgnoringCase("connection: close");
      assertThat(http.closedByServerWithin(Duration.ofSeconds(5))).isTrue();
    }
  }

  // With the whole body sent, nothing is left unread: a route's refusal keeps the connection, while
  // Jetty closes it after refusing a malformed path. Either way the answer says which.
  @ParameterizedTest(name = "{0} closes: {1}")
  @CsvSource({"/v1/queues/bad/a%zz/jobs, true", "/v1/queues/bad/a%20b/jobs, false"})
  void aRefusalWithTheWholeBodySaysConnectionCloseExactlyWhenTheServerCloses(
      String path, boolean closes) {
    try (RawHttp http = RawHttp.connect(server.port())) {
      String answer = http.post(path, LineupServerExtension.ADMIN_TOKEN, "{}").readAll();

      assertThat(answer).startsWith("HTTP/1.1 400");
      assertThat(answer.toLowerCase(Locale.ROOT).contains("connection: close"))
          .as("says Connection: close in %s", answer)
          .isEqualTo(closes);
      assertThat(http.closedByServerWithin(Duration.ofMillis(closes ? 5_000 : 500)))
          .isEqualTo(closes);
    }
  }

  /** Sends a raw request and checks the answer: this status, a JSON error with this code, an id. */
  private static void assertRawAnswerIsAJsonError(String request, int status, String code) {
    try (RawHttp http = RawHttp.connect(server.port())) {
      String answer = http.send(request).readAll();
      assertThat(answer).startsWith("HTTP/1.1 " + status);
      assertThat(answer)
          .contains("application/json")
          .contains("X-Request-Id: ")
          .contains("\"error\":\"" + code + "\"");
    }
  }

  static void assertErrorShape(Reply reply, String error, String field) {
    assertThat(reply.header("Content-Type")).startsWith("application/json");
    assertThat(reply.header("X-Request-Id")).isNotBlank();
    assertThat(reply.json()).as("a JSON body").isNotNull();
    assertThat(reply.field("error")).isEqualTo(error);
    assertThat(reply.field("message")).isNotBlank();
    assertThat(reply.field("field")).isEqualTo(field);
  }

  private static String digest() {
    try {
      return server.redisProcess().command("DEBUG DIGEST");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** JSON values a setting refuses: just outside its range, and of other JSON types. */
  private static List<String> badValues(QueueSetting setting) {
    return switch (setting.type()) {
      case BOOLEAN -> List.of("\"true\"", "1");
      case INTEGER, MILLIS ->
          List.of(
              Long.toString(setting.min() - 1),
              Long.toString(setting.max() + 1),
              "1.5",
              "\"5\"",
              "1e30");
      case FRACTION ->
          List.of(
              BigDecimal.valueOf(setting.min()).subtract(new BigDecimal("0.001")).toPlainString(),
              BigDecimal.valueOf(setting.max()).add(new BigDecimal("0.001")).toPlainString(),
              "\"0.5\"");
      case CHOICE -> List.of("\"linear\"", "5", "\"\"");
    };
  }

  /** A PATCH body setting one setting, inside its group's object if it has one. */
  private static String settingBody(QueueSetting setting, String value) {
    String field = "{\"" + setting.jsonName() + "\": " + value + "}";
    return setting.group() == null ? field : "{\"" + setting.group() + "\": " + field + "}";
  }

  private static String bulk(int jobs) {
    return "[" + "{\"payload\": 1},".repeat(jobs - 1) + "{\"payload\": 1}]";
  }

  private static String nested(int depth) {
    return "{\"payload\": " + "[".repeat(depth) + "]".repeat(depth) + "}";
  }
}
