package io.lineup.server;

import static io.lineup.server.DispatchFixtures.awaitEnd;
import static io.lineup.server.DispatchFixtures.endpoint;
import static io.lineup.server.DispatchFixtures.name;
import static io.lineup.server.DispatchFixtures.submit;
import static io.lineup.server.DispatchFixtures.token;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.server.TestTarget.Answer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** An endpoint's tasks listed by status, a page at a time. */
class EndpointTaskListTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  static final String NS = "task-lists";

  private static List<String> ids(JsonNode page) {
    List<String> ids = new ArrayList<>();
    page.path("tasks").forEach(t -> ids.add(t.path("id").asText()));
    return ids;
  }

  @Test
  void queuedTasksArePagedInLineOrderAndFinishedOnesFoundByStatus() {
    Api admin = server.admin();
    try (TestTarget target = TestTarget.start()) {
      String ep = endpoint(admin, NS, name("queued"), target.url(), "\"paused\": true");
      List<String> submitted =
          List.of(submit(admin, ep, "{}"), submit(admin, ep, "{}"), submit(admin, ep, "{}"));

      JsonNode first = admin.get(ep + "/tasks?status=queued&limit=2").json();
      assertThat(ids(first)).containsExactlyElementsOf(submitted.subList(0, 2));
      assertThat(first.path("tasks").get(0).path("status").asText()).isEqualTo("queued");
      JsonNode second =
          admin
              .get(ep + "/tasks?status=queued&limit=2&cursor=" + first.path("next_cursor").asText())
              .json();
      assertThat(ids(second)).containsExactly(submitted.get(2));
      assertThat(second.path("next_cursor").isNull()).isTrue();

      admin.post(ep + "/resume", "");
      submitted.forEach(id -> awaitEnd(admin, ep, id));
      JsonNode none = admin.get(ep + "/tasks?status=queued").json();
      assertThat(none.path("tasks")).isEmpty();
      JsonNode succeeded = admin.get(ep + "/tasks?status=succeeded&limit=2").json();
      assertThat(succeeded.path("tasks")).hasSize(2);
      assertThat(succeeded.path("scanned").asInt()).isGreaterThanOrEqualTo(2);
      JsonNode rest =
          admin
              .get(
                  ep
                      + "/tasks?status=succeeded&limit=2&cursor="
                      + succeeded.path("next_cursor").asText())
              .json();
      List<String> all = new ArrayList<>(ids(succeeded));
      all.addAll(ids(rest));
      assertThat(all).containsExactlyInAnyOrderElementsOf(submitted);
      assertThat(admin.get(ep + "/tasks?status=cancelled").json().path("tasks")).isEmpty();
    }
  }

  @Test
  void aTaskInFlightIsListedAsRunningAndOneOutOfAttemptsAsFailed() throws Exception {
    Api admin = server.admin();
    CountDownLatch release = new CountDownLatch(1);
    try (TestTarget target = TestTarget.start()) {
      target.answering(s -> {
        try {
          if (!release.await(30, TimeUnit.SECONDS)) {
            return Answer.status(500);
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return s.path().endsWith("/fail") ? Answer.status(500) : Answer.ok("{}");
      });
      String ep =
          endpoint(
              admin,
              NS,
              name("running"),
              target.url(),
              "\"max_attempts\": 1, \"circuit_breaker\": {\"failures\": 0}");
      String running = submit(admin, ep, "{\"path\": \"/ok\"}");
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> ids(admin.get(ep + "/tasks?status=running").json()).contains(running));
      JsonNode listed = admin.get(ep + "/tasks?status=running").json().path("tasks").get(0);
      assertThat(listed.path("status").asText()).isEqualTo("running");
      release.countDown();
      assertThat(awaitEnd(admin, ep, running).path("status").asText()).isEqualTo("succeeded");

      String failing = submit(admin, ep, "{\"path\": \"/fail\"}");
      assertThat(awaitEnd(admin, ep, failing).path("status").asText()).isEqualTo("failed");
      assertThat(ids(admin.get(ep + "/tasks?status=failed").json())).contains(failing);
    } finally {
      release.countDown();
    }
  }

  @Test
  void aReadTokenListsTasksAPublishTokenMayNotAndBadQueriesAreRefused() {
    Api admin = server.admin();
    String ns = NS + "-scopes";
    Api reader = admin.as(token(admin, ns, "[\"read\"]", 0));
    Api publisher = admin.as(token(admin, ns, "[\"publish\"]", 0));
    try (TestTarget target = TestTarget.start()) {
      String ep = endpoint(admin, ns, name("scopes"), target.url(), "");
      assertThat(reader.get(ep + "/tasks?status=queued").status()).isEqualTo(200);
      assertThat(publisher.get(ep + "/tasks?status=queued").status()).isEqualTo(403);
      for (String query :
          new String[] {
            "",
            "?status=done",
            "?status=queued&cursor=x",
            "?status=running&cursor=x",
            "?status=queued&limit=0"
          }) {
        Reply refused = admin.get(ep + "/tasks" + query);
        assertThat(refused.status()).as(query).isEqualTo(400);
        assertThat(refused.field("error")).isEqualTo("invalid_field");
      }
      assertThat(
              admin
                  .get("/v1/endpoints/" + ns + "/" + name("none") + "/tasks?status=queued")
                  .status())
          .isEqualTo(404);
    }
  }
}
