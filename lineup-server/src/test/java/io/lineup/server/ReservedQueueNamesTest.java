package io.lineup.server;

import static io.lineup.server.DispatchFixtures.endpoint;
import static io.lineup.server.DispatchFixtures.name;
import static io.lineup.server.DispatchFixtures.submit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The queues Lineup uses for its own work (an endpoint's, the callbacks', a room's) are refused by
 * every public queue route that writes to them or shows their payloads, for every token, the
 * admin's included; dispatch and rooms keep working, and their data is read through the endpoint
 * and room routes.
 */
class ReservedQueueNamesTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  static final String NS = "reserved";
  static Api admin;
  static TestTarget target;
  static String endpointName;
  static String ep;
  static String taskId;

  @BeforeAll
  static void start() {
    admin = server.admin();
    target = TestTarget.start();
    endpointName = name("ep");
    ep = endpoint(admin, NS, endpointName, target.url(), "");
    taskId = submit(admin, ep, "{\"headers\": {\"Authorization\": \"Bearer upstream-secret\"}}");
    await()
        .atMost(Duration.ofSeconds(15))
        .until(() ->
            admin.get(ep + "/tasks/" + taskId + "?peek=true").field("status").equals("succeeded"));
  }

  @AfterAll
  static void stop() {
    target.close();
  }

  record Call(String method, String path, String body) {}

  static List<Call> calls(String queue) {
    String q = "/v1/queues/" + NS + "/" + queue;
    String job = q + "/jobs/" + taskId;
    return List.of(
        new Call("POST", q + "/jobs", "{\"payload\": {\"x\": 1}}"),
        new Call("POST", q + "/jobs?durable_replicas=0", "[{\"payload\": 1}, {\"payload\": 2}]"),
        new Call("GET", job, null),
        new Call("DELETE", job, null),
        new Call("POST", q + "/leases", "{\"count\": 1}"),
        new Call("POST", "/v1/queues/" + NS + "/plain," + queue + "/leases", "{\"count\": 1}"),
        new Call("POST", job + "/ack", "{\"token\": \"t\"}"),
        new Call("POST", q + "/acks", "{\"acks\": [{\"id\": \"a\", \"token\": \"t\"}]}"),
        new Call("POST", job + "/nack", "{\"token\": \"t\"}"),
        new Call("POST", job + "/extend", "{\"token\": \"t\", \"ttr_ms\": 1000}"),
        new Call("PATCH", q, "{\"paused\": true}"),
        new Call("PATCH", q, "{\"max_attempts\": 1}"),
        new Call("GET", q + "/dead", null),
        new Call("POST", q + "/dead/respawn", "{\"all\": true}"),
        new Call("DELETE", q + "/dead", null));
  }

  static Reply call(Api api, Call c) {
    return switch (c.method()) {
      case "GET" -> api.get(c.path());
      case "DELETE" -> api.delete(c.path());
      case "PATCH" -> api.patch(c.path(), c.body());
      default -> api.post(c.path(), c.body());
    };
  }

  @Test
  void everyPublicQueueRouteRefusesLineupsOwnQueuesForEveryTokenAdminIncluded() {
    String all =
        DispatchFixtures.token(admin, NS, "[\"publish\", \"consume\", \"manage\", \"read\"]", 9);
    for (Api api : List.of(admin, admin.as(all))) {
      for (String queue :
          List.of(
              "dispatch." + endpointName,
              "dispatch-callbacks",
              "room.lobby",
              "dispatch.other",
              "lineup.future")) {
        for (Call c : calls(queue)) {
          Reply reply = call(api, c);
          assertThat(reply.status()).as(c + ": " + reply).isEqualTo(403);
          assertThat(reply.field("error")).as(c.toString()).isEqualTo("reserved_queue");
          assertThat(reply.field("field")).isEqualTo("queue");
          assertThat(reply.text()).doesNotContain("upstream-secret");
        }
      }
    }
    // Nothing changed: the task is still the one submitted, the endpoint still sends.
    assertThat(admin.get(ep + "/tasks/" + taskId + "?peek=true").field("status"))
        .isEqualTo("succeeded");
    String next = submit(admin, ep, "{}");
    await()
        .atMost(Duration.ofSeconds(15))
        .until(() ->
            admin.get(ep + "/tasks/" + next + "?peek=true").field("status").equals("succeeded"));
    // A queue of the caller's own is served as before.
    assertThat(admin.post("/v1/queues/" + NS + "/plain/jobs", "{\"payload\": 1}").status())
        .isEqualTo(201);
  }

  @Test
  void countsAndHistoryOfAnEndpointsQueueStayReadableAndItsDeadTasksHaveAnEndpointRoute() {
    String reader = DispatchFixtures.token(admin, NS, "[\"read\"]", 0);
    Api read = admin.as(reader);
    String queue = "/v1/queues/" + NS + "/dispatch." + endpointName;
    assertThat(read.get(queue).status()).isEqualTo(200);
    assertThat(read.get(queue + "/history").status()).isEqualTo(200);
    Reply none = read.get(ep + "/dead");
    assertThat(none.status()).as(none.toString()).isEqualTo(200);
    assertThat(none.json().path("total").asLong()).isZero();

    TestTarget failing = TestTarget.start();
    try (failing) {
      failing.answering(s -> TestTarget.Answer.status(500));
      String down =
          endpoint(
              admin,
              NS,
              name("down"),
              failing.url(),
              "\"max_attempts\": 1, \"circuit_breaker\": {\"failures\": 0}");
      String id = submit(admin, down, "{\"headers\": {\"X-Secret\": \"upstream-secret\"}}");
      await()
          .atMost(Duration.ofSeconds(15))
          .until(() -> read.get(down + "/dead").json().path("total").asLong() == 1);
      Reply dead = read.get(down + "/dead");
      assertThat(dead.json().path("tasks").get(0).path("id").asText()).isEqualTo(id);
      assertThat(dead.json().path("tasks").get(0).path("status").asText()).isEqualTo("failed");
      assertThat(dead.text()).doesNotContain("upstream-secret");
    }
  }
}
