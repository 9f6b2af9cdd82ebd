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
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An operator pauses, resumes and resets the circuit of an endpoint; every answer is the endpoint
 * as the server holds it afterwards, and a resume that the circuit breaker would undo is refused.
 */
class EndpointControlsTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  static final String NS = "controls";

  @Test
  void aPausedEndpointKeepsItsTasksUntilItIsResumedAndEachAnswerShowsTheNewState() {
    Api admin = server.admin();
    try (TestTarget target = TestTarget.start()) {
      String ep = endpoint(admin, NS, name("pause"), target.url(), "");

      Reply paused = admin.post(ep + "/pause", "");
      assertThat(paused.status()).as(paused.toString()).isEqualTo(200);
      assertThat(paused.json().path("paused").asBoolean()).isTrue();
      assertThat(admin.get(ep).json().path("paused").asBoolean()).isTrue();
      String id = submit(admin, ep, "{}");
      assertThat(admin.get(ep + "/tasks/" + id + "?peek=true").field("status")).isEqualTo("queued");

      Reply resumed = admin.post(ep + "/resume", "");
      assertThat(resumed.status()).as(resumed.toString()).isEqualTo(200);
      assertThat(resumed.json().path("paused").asBoolean()).isFalse();
      assertThat(awaitEnd(admin, ep, id).path("status").asText()).isEqualTo("succeeded");
      assertThat(target.count()).isEqualTo(1);
    }
  }

  @Test
  void resumingAnEndpointHeldByItsOpenBreakerIsRefusedAndAResetSendsItsTasksAgain() {
    Api admin = server.admin();
    try (TestTarget target = TestTarget.start()) {
      AtomicBoolean healthy = new AtomicBoolean(false);
      target.answering(s -> healthy.get() ? Answer.ok("{}") : Answer.status(503));
      // One failure opens the breaker for an hour: only a reset can close it within the test.
      String ep =
          endpoint(
              admin,
              NS,
              name("breaker"),
              target.url(),
              "\"max_attempts\": 5, \"backoff\": {\"kind\": \"fixed\", \"initial_ms\": 10,"
                  + " \"jitter\": 0}, \"circuit_breaker\": {\"failures\": 1, \"cooldown_ms\":"
                  + " 3600000}");
      String id = submit(admin, ep, "{}");
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> state(admin.get(ep).json()).equals("open"));

      Reply refused = admin.post(ep + "/resume", "");
      assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
      assertThat(refused.field("error")).isEqualTo("circuit_open");
      assertThat(refused.field("circuit_breaker_state")).isEqualTo("open");
      assertThat(refused.field("message")).contains("/circuit/reset");
      assertThat(state(admin.get(ep).json())).as("nothing changed").isEqualTo("open");

      healthy.set(true);
      Reply reset = admin.post(ep + "/circuit/reset", "");
      assertThat(reset.status()).as(reset.toString()).isEqualTo(200);
      assertThat(state(reset.json())).isEqualTo("closed");
      assertThat(reset.json().path("circuit_breaker_state").path("consecutive_failures").asInt())
          .isZero();
      assertThat(awaitEnd(admin, ep, id).path("status").asText()).isEqualTo("succeeded");
    }
  }

  @Test
  void resettingTheCircuitOfAPausedEndpointLeavesItPaused() {
    Api admin = server.admin();
    try (TestTarget target = TestTarget.start()) {
      String ep = endpoint(admin, NS, name("both"), target.url(), "\"paused\": true");
      Reply reset = admin.post(ep + "/circuit/reset", "");
      assertThat(reset.status()).as(reset.toString()).isEqualTo(200);
      assertThat(reset.json().path("paused").asBoolean()).isTrue();
      assertThat(state(reset.json())).isEqualTo("closed");
    }
  }

  @Test
  void aReadTokenSeesTheEndpointButCannotPauseResumeOrResetIt() {
    Api admin = server.admin();
    String ns = NS + "-read";
    Api reader = admin.as(token(admin, ns, "[\"read\"]", 0));
    try (TestTarget target = TestTarget.start()) {
      String ep = endpoint(admin, ns, name("read"), target.url(), "");
      assertThat(reader.get(ep).status()).isEqualTo(200);
      for (String action : new String[] {"/pause", "/resume", "/circuit/reset"}) {
        Reply refused = reader.post(ep + action, "");
        assertThat(refused.status()).as(action).isEqualTo(403);
        assertThat(refused.field("error")).isEqualTo("forbidden");
      }
      assertThat(admin.get(ep).json().path("paused").asBoolean()).isFalse();
    }
  }

  @Test
  void controlsOfAnUnknownOrMisnamedEndpointAnswerJsonErrors() {
    Api admin = server.admin();
    Reply unknown = admin.post("/v1/endpoints/" + NS + "/" + name("none") + "/pause", "");
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.field("error")).isEqualTo("not_found");
    Reply misnamed = admin.post("/v1/endpoints/" + NS + "/..../resume", "");
    assertThat(misnamed.status()).isEqualTo(400);
    assertThat(misnamed.field("error")).isEqualTo("invalid_name");
  }

  @Test
  void theSettingsOfAnEndpointsQueueCannotBeChangedThroughTheQueueRoute() {
    Api admin = server.admin();
    try (TestTarget target = TestTarget.start()) {
      String name = name("internal");
      endpoint(admin, NS, name, target.url(), "\"rate\": 5");
      for (String change :
          new String[] {
            "{\"rate_period_ms\": 1020}", "{\"ttr_ms\": 32000}", "{\"paused\": false}"
          }) {
        Reply refused = admin.patch("/v1/queues/" + NS + "/dispatch." + name, change);
        assertThat(refused.status()).as(change).isEqualTo(403);
        assertThat(refused.field("error")).isEqualTo("reserved_queue");
        assertThat(refused.field("endpoint")).isEqualTo(name);
        assertThat(refused.field("message")).contains("PUT /v1/endpoints/" + NS + "/" + name);
      }
      JsonNode ep = admin.get("/v1/endpoints/" + NS + "/" + name).json();
      assertThat(ep.path("rate").asInt()).isEqualTo(5);
    }
  }

  private static String state(JsonNode endpoint) {
    return endpoint.path("circuit_breaker_state").path("state").asText();
  }
}
