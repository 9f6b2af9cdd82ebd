package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.server.api.LaneAction;
import io.lineup.server.api.RouteTable;
import io.lineup.server.auth.Access;
import io.lineup.server.auth.Scope;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The core lane serves {@code POST /v1/queues/{ns}/{queue}/jobs} and {@code POST
 * /v1/endpoints/{ns}/{endpoint}/tasks} without the servlet layer; a request with a query goes the
 * servlet way. Every answer, good or bad, must be the same either way.
 */
class CoreLaneTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  /** A query the servlet route takes and the lane does not: the queue's own durability. */
  private static final String BY_THE_ROUTES = "?durable_replicas=0";

  /** A query the submit route ignores and the lane does not take. */
  private static final String SUBMIT_BY_THE_ROUTES = "?via=routes";

  /** A paused endpoint of namespace shop: its tasks wait, so their answers can be compared. */
  private static final String ENDPOINT = "/v1/endpoints/shop/render";

  static Api admin;
  static TestTarget target;

  @BeforeAll
  static void start() {
    admin = server.admin();
    assertThat(admin.post("/v1/admin/namespaces", "{\"name\": \"shop\"}").status()).isEqualTo(201);
    target = TestTarget.start();
    DispatchFixtures.endpoint(admin, "shop", "render", target.url(), "\"paused\": true");
  }

  @AfterAll
  static void stop() {
    target.close();
  }

  @Test
  void aPublishOnTheLaneIsAnsweredWithTheStatusHeadersAndFieldsOfTheRoute() {
    Api caller = admin.withHeader("X-Request-Id", "order-42");
    String job = "{\"payload\": {\"order\": 42}, \"delay_ms\": 60000}";

    Reply lane = caller.post("/v1/queues/shop/orders/jobs", job);
    Reply route = caller.post("/v1/queues/shop/orders/jobs" + BY_THE_ROUTES, job);

    assertThat(lane.status()).as(lane.toString()).isEqualTo(201);
    assertThat(route.status()).as(route.toString()).isEqualTo(201);
    assertThat(headerNames(lane)).isEqualTo(headerNames(route));
    assertThat(lane.header("Content-Type")).isEqualTo(route.header("Content-Type"));
    assertThat(lane.header("Content-Length")).isEqualTo(Integer.toString(lane.raw().body().length));
    assertThat(lane.header("X-Request-Id")).isEqualTo("order-42");
    assertThat(fieldNames(lane.json())).isEqualTo(fieldNames(route.json()));
    assertThat(lane.field("state")).isEqualTo(route.field("state")).isEqualTo("DELAYED");
    assertThat(admin.get("/v1/queues/shop/orders/jobs/" + lane.field("id")).field("state"))
        .as("the lane's job is stored")
        .isEqualTo("DELAYED");
  }

  @Test
  void aSubmitOnTheLaneIsAnsweredWithTheStatusHeadersAndFieldsOfTheRoute() {
    Api caller = admin.withHeader("X-Request-Id", "task-7");
    String task = "{\"path\": \"/render\", \"body\": {\"size\": 2}, \"priority\": 3}";

    Reply lane = caller.post(ENDPOINT + "/tasks", task);
    Reply route = caller.post(ENDPOINT + "/tasks" + SUBMIT_BY_THE_ROUTES, task);

    assertThat(lane.status()).as(lane.toString()).isEqualTo(202);
    assertThat(route.status()).as(route.toString()).isEqualTo(202);
    assertThat(headerNames(lane)).isEqualTo(headerNames(route));
    assertThat(lane.header("Content-Type")).isEqualTo(route.header("Content-Type"));
    assertThat(lane.header("Content-Length")).isEqualTo(Integer.toString(lane.raw().body().length));
    assertThat(lane.header("X-Request-Id")).isEqualTo("task-7");
    assertThat(fieldNames(lane.json())).isEqualTo(fieldNames(route.json()));
    assertThat(lane.field("status")).isEqualTo(route.field("status")).isEqualTo("queued");
    Reply stored = admin.get(ENDPOINT + "/tasks/" + lane.field("id"));
    assertThat(stored.status()).as(stored.toString()).isEqualTo(200);
    assertThat(stored.json().path("path").asText())
        .as("the lane's task is stored")
        .isEqualTo("/render");
    assertThat(stored.json().path("priority").asInt()).isEqualTo(3);
  }

  @Test
  void aRepeatedIdempotencyKeyIsAnswered200WithTheFirstTaskOnTheLaneAsOnTheRoute() {
    String task = "{\"idempotency_key\": \"invoice 9\", \"body\": 1}";

    Reply first = admin.post(ENDPOINT + "/tasks", task);
    Reply lane = admin.post(ENDPOINT + "/tasks", task);
    Reply route = admin.post(ENDPOINT + "/tasks" + SUBMIT_BY_THE_ROUTES, task);

    assertThat(first.status()).as(first.toString()).isEqualTo(202);
    assertThat(lane.status()).as(lane.toString()).isEqualTo(200);
    assertThat(route.status()).as(route.toString()).isEqualTo(200);
    assertThat(lane.field("id")).isEqualTo(route.field("id")).isEqualTo(first.field("id"));
    assertThat(fieldNames(lane.json())).isEqualTo(fieldNames(route.json()));
  }

  @Test
  void aBatchOnTheLaneIsPublishedInOrder() {
    Reply lane =
        admin.post(
            "/v1/queues/shop/batch/jobs",
            "[{\"id\": \"first\", \"payload\": 1}, {\"id\": \"second\", \"payload\": 2}]");

    assertThat(lane.status()).as(lane.toString()).isEqualTo(201);
    assertThat(lane.json().findValuesAsText("id")).containsExactly("first", "second");
  }

  @Test
  void aChunkedBodyIsReadToItsEndOnTheLane() {
    String first = "{\"id\": \"chunked\", ";
    String second = "\"payload\": {\"parts\": 2}}";
    try (RawHttp http = RawHttp.connect(server.port())) {
      String answer =
          http.send(
                  "POST /v1/queues/shop/chunks/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      + "Authorization: Bearer "
                      + LineupServerExtension.ADMIN_TOKEN
                      + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                      + Integer.toHexString(first.length())
                      + "\r\n"
                      + first
                      + "\r\n")
              .send(Integer.toHexString(second.length()) + "\r\n" + second + "\r\n0\r\n\r\n")
              .readAll();

      assertThat(answer).startsWith("HTTP/1.1 201");
      assertThat(answer).contains("\"id\":\"chunked\"");
    }
    assertThat(admin.get("/v1/queues/shop/chunks/jobs/chunked").text()).contains("\"parts\":2");
  }

  @Test
  void publishesOnOneKeptAliveConnectionAreEachAnswered() {
    try (RawHttp http = RawHttp.connect(server.port())) {
      String token = LineupServerExtension.ADMIN_TOKEN;
      String one = http.post("/v1/queues/shop/alive/jobs", token, "{\"payload\": 1}").readAll();
      String two = http.post("/v1/queues/shop/alive/jobs", token, "{\"payload\": 2}").readAll();

      assertThat(one).startsWith("HTTP/1.1 201");
      assertThat(two).startsWith("HTTP/1.1 201");
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "no token | none | /v1/queues/shop/orders/jobs | {\"payload\": 1}",
        "an unknown token | nobody | /v1/queues/shop/orders/jobs | {\"payload\": 1}",
        "a body that is not JSON | admin | /v1/queues/shop/orders/jobs | {\"payload\": ",
        "an empty body | admin | /v1/queues/shop/orders/jobs | ''",
        "a field of the wrong type | admin | /v1/queues/shop/orders/jobs | {\"delay_ms\": \"soon\"}",
        "a bad queue name | admin | /v1/queues/shop/or:ders/jobs | {\"payload\": 1}",
        "a bad namespace | admin | /v1/queues/sh:op/orders/jobs | {\"payload\": 1}",
        "a submit without a token | none | /v1/endpoints/shop/render/tasks | {\"body\": 1}",
        "a submit with an unknown token | nobody | /v1/endpoints/shop/render/tasks | {\"body\": 1}",
        "a submit body that is not JSON | admin | /v1/endpoints/shop/render/tasks | {\"body\": ",
        "an empty submit body | admin | /v1/endpoints/shop/render/tasks | ''",
        "a task field of the wrong type | admin | /v1/endpoints/shop/render/tasks | {\"priority\": \"high\"}",
        "an unknown endpoint, before its body | admin | /v1/endpoints/shop/nowhere/tasks | {\"body\": ",
        "a bad endpoint name | admin | /v1/endpoints/shop/ren:der/tasks | {\"body\": 1}",
        "a submit in a bad namespace | admin | /v1/endpoints/sh:op/render/tasks | {\"body\": 1}",
      })
  void aRefusalOnTheLaneHasTheStatusHeadersAndErrorOfTheRoute(
      String what, String token, String path, String body) {
    Api caller =
        switch (token) {
          case "none" -> admin.as(null);
          case "admin" -> admin;
          default -> admin.as(token);
        };

    Reply lane = caller.post(path, body);
    Reply route =
        caller.post(path + (path.endsWith("/tasks") ? SUBMIT_BY_THE_ROUTES : BY_THE_ROUTES), body);

    assertThat(lane.status()).as(lane.toString()).isBetween(400, 499);
    assertThat(lane.status()).as(what).isEqualTo(route.status());
    assertThat(lane.field("error")).isEqualTo(route.field("error"));
    assertThat(lane.field("message")).isEqualTo(route.field("message"));
    assertThat(lane.field("field")).isEqualTo(route.field("field"));
    assertThat(headerNames(lane)).isEqualTo(headerNames(route));
    assertThat(lane.header("WWW-Authenticate")).isEqualTo(route.header("WWW-Authenticate"));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "on the lane, /v1/queues/shop/orders/jobs",
    "on the route, /v1/queues/shop/orders/jobs?durable_replicas=0",
    "a submit on the lane, /v1/endpoints/shop/render/tasks",
  })
  void aRefusalSentBeforeTheBodyArrivedSaysTheConnectionCloses(String way, String path) {
    try (RawHttp http = RawHttp.connect(server.port())) {
      String answer = http.postHeadersOnly(path, null, 14).readAll();

      assertThat(answer).as(way).startsWith("HTTP/1.1 401");
      assertThat(answer)
          .as("a client must not send its next request on this connection")
          .containsIgnoringCase("connection: close");
    }
  }

  @Test
  void aPublishToAnotherNamespaceIsRefusedOnTheLaneAsOnTheRoute() {
    assertThat(admin.post("/v1/admin/namespaces", "{\"name\": \"blog\"}").status()).isEqualTo(201);
    Reply issued =
        admin.post(
            "/v1/admin/tokens",
            "{\"namespace\": \"blog\", \"scopes\": [\"publish\"], \"name\": \"lane\"}");
    assertThat(issued.status()).as(issued.toString()).isEqualTo(201);
    Api blog = admin.as(issued.field("token"));

    Reply lane = blog.post("/v1/queues/shop/orders/jobs", "{\"payload\": 1}");
    Reply route = blog.post("/v1/queues/shop/orders/jobs" + BY_THE_ROUTES, "{\"payload\": 1}");

    assertThat(lane.status()).as(lane.toString()).isEqualTo(403);
    assertThat(lane.field("message")).isEqualTo(route.field("message"));
    assertThat(blog.post("/v1/queues/blog/posts/jobs", "{\"payload\": 1}").status())
        .as("its own namespace")
        .isEqualTo(201);
  }

  @Test
  void pathsTheLaneDoesNotTakeAreAnsweredByTheRoutes() {
    Reply trailingSlash = admin.post("/v1/queues/shop/orders/jobs/", "{\"payload\": 1}");
    assertThat(trailingSlash.status()).isEqualTo(404);
    assertThat(trailingSlash.field("message")).contains("try /v1/queues/shop/orders/jobs");

    // A GET of the jobs is the job list's route (docs/job-lists.md), which asks for a state.
    Reply read = admin.get("/v1/queues/shop/orders/jobs");
    assertThat(read.status()).as(read.toString()).isEqualTo(400);
    assertThat(read.field("field")).isEqualTo("state");

    Reply encoded = admin.post("/v1/queues/shop/%6Frders/jobs", "{\"payload\": 1}");
    assertThat(encoded.status()).as(encoded.toString()).isEqualTo(201);
  }

  @Test
  void theLaneCountsItsPublishesUnderThePublishRoute() {
    double before = publishCount();

    for (int i = 0; i < 3; i++) {
      assertThat(admin.post("/v1/queues/shop/counted/jobs", "{\"payload\": 1}").status())
          .isEqualTo(201);
    }

    assertThat(publishCount() - before).isEqualTo(3.0);
  }

  @Test
  void theLaneCountsItsSubmitsUnderTheSubmitRoute() {
    double before = count("/v1/endpoints/{ns}/{endpoint}/tasks", "202");

    for (int i = 0; i < 2; i++) {
      assertThat(admin.post(ENDPOINT + "/tasks", "{\"body\": 1}").status()).isEqualTo(202);
    }

    assertThat(count("/v1/endpoints/{ns}/{endpoint}/tasks", "202") - before).isEqualTo(2.0);
  }

  @ParameterizedTest(name = "{0} → {1}")
  @CsvSource({
    "/v1/endpoints/shop/render/tasks, 18",
    "/v1/endpoints/shop/render/tasks/abc, -1",
    "/v1/endpoints/shop/render, -1",
    "/v1/endpoints/shop//tasks, -1",
    "/v1/queues/shop/render/tasks, -1",
  })
  void theLaneTakesOnlyASubmitPathWithTwoPlainNames(String path, int slash) {
    assertThat(lane("/v1/endpoints/{ns}/{endpoint}/tasks").slashBetweenNames(path))
        .isEqualTo(slash);
  }

  @ParameterizedTest
  @CsvSource({
    "/v1/queues/{queue}/jobs",
    "/v1/queues/{ns}/jobs",
    "/v1/queues/{ns}/{queue}/jobs/{id}",
    "/v1/{kind}/{ns}/{queue}/jobs",
  })
  void aTemplateWithoutExactlyTwoNamesBetweenFixedTextIsNoLaneRoute(String template) {
    assertThatThrownBy(() -> lane(template)).isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest(name = "{0} → {1}")
  @CsvSource({
    "/v1/queues/shop/orders/jobs, 15",
    "/v1/queues/a/b/jobs, 12",
    "/v1/queues/shop/orders/jobs/, -1",
    "/v1/queues/shop//jobs, -1",
    "/v1/queues//orders/jobs, -1",
    "/v1/queues/shop/orders/x/jobs, -1",
    "/v1/queues/shop/o%72ders/jobs, -1",
    "/v1/queues/shop/orders;x=1/jobs, -1",
    "/v1/queues/shop/orders/jobs/abc, -1",
    "/v1/queues/jobs, -1",
  })
  void theLaneTakesOnlyAPublishPathWithTwoPlainNames(String path, int slash) {
    assertThat(lane(RouteTable.PUBLISH_PATH).slashBetweenNames(path)).isEqualTo(slash);
  }

  private static LaneRoute lane(String template) {
    return new LaneRoute(
        template,
        Access.namespace(Scope.PUBLISH),
        (ns, name, body, principal) -> new LaneAction.Answer(204, new byte[0]));
  }

  private static double publishCount() {
    return count("/v1/queues/{ns}/{queue}/jobs", "201");
  }

  private static double count(String route, String status) {
    Reply metrics = admin.get("/metrics");
    for (String line : metrics.text().split("\n")) {
      if (line.startsWith("lineup_http_server_requests_seconds_count")
          && line.contains("route=\"" + route + "\"")
          && line.contains("status=\"" + status + "\"")) {
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return 0;
  }

  private static Set<String> headerNames(Reply reply) {
    Set<String> names = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
    names.addAll(reply.raw().headers().map().keySet());
    names.remove("date");
    // A refusal sent before the body was read closes the connection when the body has not all
    // arrived yet, on either way: a matter of timing, not of the answer.
    names.remove("connection");
    return names;
  }

  private static List<String> fieldNames(JsonNode json) {
    List<String> names = new ArrayList<>();
    json.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
