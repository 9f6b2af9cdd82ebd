package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.archive.ArchiveSettings;
import io.lineup.testing.RedisServerExtension;
import io.lineup.testing.TestDatabase;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * With an archive database configured, a job whose Redis record is gone is still answered by its
 * route, from the archive, and {@code GET /v1/archive/{ns}} lists the namespace's archived jobs;
 * bad listing parameters get a 400 naming the parameter. On the machine's PostgreSQL, in a schema
 * of this class's own (the archive's behaviour on each database is ArchiveContractTest's).
 */
class ArchiveApiTest {
  static final TestDatabase database = TestDatabase.postgres();

  @RegisterExtension
  static LineupServerExtension server =
      LineupServerExtension.onItsOwnRedis()
          .withSettings(s ->
              s.archive(
                  ArchiveSettings.builder(database.create().url())
                      .user(database.user())
                      .pollInterval(Duration.ofMillis(20))
                      .claimIdle(Duration.ofSeconds(1))
                      .retentionInterval(Duration.ofHours(1))
                      .build()));

  static Api api;

  @BeforeAll
  static void connect() {
    api = server.admin();
    // The archiver creates its table when it first reaches the database; until then the archive
    // answers 503 archive_unavailable.
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> api.get("/v1/archive/listed").status() == 200);
  }

  @AfterAll
  static void dropDatabase() {
    database.close();
  }

  private static String aQueueWithoutRetention(String ns) {
    String queue = "/v1/queues/" + ns + "/" + RedisServerExtension.uniqueName("q");
    // No retention in Redis: a record goes the moment its job ends.
    assertThat(api.patch(queue, "{\"retention_ms\": 0}").status()).isEqualTo(200);
    return queue;
  }

  private static String anAckedJob(String queue, String id, String result) {
    assertThat(
            api.post(queue + "/jobs", "{\"payload\": {\"n\": 1}, \"id\": \"" + id + "\"}").status())
        .isEqualTo(201);
    JsonNode job = api.post(queue + "/leases", "{\"wait_ms\": 5000}").json().get("jobs").get(0);
    Reply ack =
        api.post(
            queue + "/jobs/" + id + "/ack",
            "{\"token\": \"" + job.get("token").asText() + "\", \"result\": " + result + "}");
    assertThat(ack.status()).as(ack.toString()).isEqualTo(204);
    return id;
  }

  @Test
  void aJobWhoseRedisRecordIsGoneIsAnsweredFromTheArchive() {
    String queue = aQueueWithoutRetention("archived");
    anAckedJob(queue, "order-1", "{\"invoice\": 42}");

    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> api.get(queue + "/jobs/order-1").status() == 200);

    assertThat(api.get(queue).json().path("counts").path("finished").asLong()).isZero();
    JsonNode job = api.get(queue + "/jobs/order-1").json();
    assertThat(job.get("state").asText()).isEqualTo("DONE");
    assertThat(job.get("result").get("invoice").asInt()).isEqualTo(42);
    assertThat(job.get("payload").get("n").asInt()).isEqualTo(1);
    assertThat(job.get("position").asLong()).isEqualTo(-1);
    assertThat(api.get(queue + "/jobs/never-was").status()).isEqualTo(404);
  }

  @Test
  void aTaskWhoseRedisRecordIsGoneIsAnsweredFromTheArchiveWithItsResponse() {
    try (TestTarget target = TestTarget.start()) {
      // No retention in Redis: the task's record goes the moment it ends.
      String endpoint =
          DispatchFixtures.endpoint(
              api, "tasks", DispatchFixtures.name("ep"), target.url(), "\"retention_ms\": 0");
      String id = DispatchFixtures.submit(api, endpoint, "{\"path\": \"/render\"}");

      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> {
            Reply reply = api.get(endpoint + "/tasks/" + id);
            return reply.status() == 200
                && reply.json().path("status").asText().equals("succeeded");
          });

      // Redis holds no finished record of the endpoint's queue: the answer came from the archive.
      String queue =
          "/v1/queues/tasks/dispatch." + endpoint.substring(endpoint.lastIndexOf('/') + 1);
      assertThat(api.get(queue).json().path("counts").path("finished").asLong()).isZero();
      JsonNode task = api.get(endpoint + "/tasks/" + id).json();
      assertThat(task.path("response").path("status").asInt()).isEqualTo(200);
      assertThat(task.path("response").path("body").path("ok").asBoolean()).isTrue();
      assertThat(task.path("method").asText()).isEqualTo("POST");
      assertThat(task.path("attempts")).hasSize(1);
    }
  }

  @Test
  void theArchiveListsANamespacesJobsNewestFirstPageByPage() {
    String queue = aQueueWithoutRetention("listed");
    String name = queue.substring(queue.lastIndexOf('/') + 1);
    for (int i = 0; i < 3; i++) {
      anAckedJob(queue, "job-" + i, "" + i);
    }
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> api.get("/v1/archive/listed?queue=" + name).json().get("jobs").size() == 3);

    Reply first = api.get("/v1/archive/listed?queue=" + name + "&state=DONE&limit=2");
    assertThat(first.status()).isEqualTo(200);
    assertThat(first.json().get("jobs")).hasSize(2);
    assertThat(first.json().get("jobs").get(0).get("id").asText()).isEqualTo("job-2");
    assertThat(first.json().get("jobs").get(0).get("result").asInt()).isEqualTo(2);
    String cursor = first.json().get("next_cursor").asText();
    Reply second = api.get("/v1/archive/listed?queue=" + name + "&limit=2&cursor=" + cursor);
    assertThat(second.json().get("jobs")).hasSize(1);
    assertThat(second.json().get("jobs").get(0).get("id").asText()).isEqualTo("job-0");
    assertThat(second.json().get("next_cursor").isNull()).isTrue();
    assertThat(api.get("/v1/archive/listed?queue=" + name + "&state=CANCELLED").json().get("jobs"))
        .isEmpty();
  }

  @Test
  void badListingParametersAreRefusedNamingTheParameter() {
    assertThat(api.get("/v1/archive/listed?state=READY").field("field")).isEqualTo("state");
    assertThat(api.get("/v1/archive/listed?limit=0").field("field")).isEqualTo("limit");
    assertThat(api.get("/v1/archive/listed?from=yesterday").field("field")).isEqualTo("from");
    Reply badCursor = api.get("/v1/archive/listed?cursor=abc");
    assertThat(badCursor.status()).isEqualTo(400);
    assertThat(badCursor.field("field")).isEqualTo("cursor");
    assertThat(api.get("/v1/archive/listed?queue=has%20space").status()).isEqualTo(400);
  }

  @Test
  void aNamespaceTokenListsOnlyItsOwnNamespace() {
    assertThat(api.post("/v1/admin/namespaces", "{\"name\":\"mine\"}").status()).isIn(200, 201);
    String token =
        api.post("/v1/admin/tokens", "{\"namespace\":\"mine\",\"scopes\":[\"manage\"]}")
            .field("token");
    Api mine = api.as(token);

    assertThat(mine.get("/v1/archive/mine").status()).isEqualTo(200);
    assertThat(mine.get("/v1/archive/listed").status()).isEqualTo(403);
  }
}
