package io.lineup.server;

import static io.lineup.server.DispatchFixtures.awaitEnd;
import static io.lineup.server.DispatchFixtures.endpoint;
import static io.lineup.server.DispatchFixtures.name;
import static io.lineup.server.DispatchFixtures.submit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.core.Lineup;
import io.lineup.core.LineupOptions;
import io.lineup.core.model.JobState;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.QueueName;
import io.lineup.server.TestTarget.Answer;
import io.lineup.server.http.Json;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A callback is built by the server from the task's own record when it is sent: a job written into
 * the callback queue cannot choose the URL, the id or the signed body; a task that ran out of
 * attempts calls back with its last response.
 */
class DispatchCallbackRecordTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  static Api api;
  static Lineup engine;

  @BeforeAll
  static void start() {
    api = server.admin();
    engine = Lineup.connect(LineupOptions.builder(server.redis().uri()).build());
  }

  @AfterAll
  static void stop() {
    engine.close();
  }

  static String publishCallbackJob(String ns, String payload) {
    return engine
        .publish(
            QueueName.of(ns, "dispatch-callbacks"),
            NewJob.of(payload.getBytes(StandardCharsets.UTF_8)))
        .id();
  }

  @Test
  void aHandWrittenCallbackJobCannotChooseTheUrlTheIdOrTheSignedBody() throws Exception {
    String ns = "forgecb";
    TestTarget target = TestTarget.start();
    TestTarget receiver = TestTarget.start();
    try (target;
        receiver) {
      target.answering(s -> Answer.status(404));
      Reply settings =
          api.put("/v1/callbacks/" + ns, "{\"allowed_prefixes\": [\"" + receiver.url() + "/\"]}");
      assertThat(settings.status()).as(settings.toString()).isEqualTo(200);
      String name = name("forge");
      String ep = endpoint(api, ns, name, target.url(), "");
      String id = submit(api, ep, "{\"callback_url\": \"" + receiver.url() + "/real\"}");
      assertThat(awaitEnd(api, ep, id).path("status").asText()).isEqualTo("failed");
      await().atMost(Duration.ofSeconds(15)).until(() -> receiver.count() == 1);
      TestTarget.Seen real = receiver.seen().get(0);

      // In the form earlier versions queued: URL, id and body given. Only the task it names counts.
      String forged =
          "{\"url\": \""
              + receiver.url()
              + "/admin\", \"webhook_id\": \"forged\", \"body\": {\"id\": \""
              + id
              + "\", \"namespace\": \""
              + ns
              + "\", \"endpoint\": \""
              + name
              + "\", \"status\": \"succeeded\"}}";
      String rebuilt = publishCallbackJob(ns, forged);
      // Naming a task that does not exist, or one of another namespace: nothing is sent.
      String unknown =
          publishCallbackJob(
              ns,
              "{\"url\": \""
                  + receiver.url()
                  + "/x\", \"webhook_id\": \"forged\", \"body\": {\"status\": \"succeeded\"}}");
      String elsewhere =
          publishCallbackJob(
              ns,
              "{\"namespace\": \"other\", \"endpoint\": \""
                  + name
                  + "\", \"task\": \""
                  + id
                  + "\", \"event\": \"ended\"}");
      // Sealed with a seal the server did not make: rebuilt from the task's record too.
      String badSeal =
          publishCallbackJob(
              ns,
              Json.MAPPER
                  .createObjectNode()
                  .put("namespace", ns)
                  .put("endpoint", name)
                  .put("task", id)
                  .put("event", "ended")
                  .put(
                      "sealed",
                      "{\"url\": \""
                          + receiver.url()
                          + "/admin\", \"webhook_id\": \"forged\", \"body\": {\"id\": \""
                          + id
                          + "\", \"status\": \"succeeded\"}}")
                  .put("seal", "c2VhbGVk")
                  .toString());
      QueueName queue = QueueName.of(ns, "dispatch-callbacks");
      for (String job : new String[] {rebuilt, unknown, elsewhere, badSeal}) {
        await()
            .atMost(Duration.ofSeconds(15))
            .until(() -> engine.get(queue, job).map(j -> j.state() == JobState.DONE).orElse(true));
      }
      assertThat(receiver.count()).isEqualTo(3);
      for (TestTarget.Seen again : receiver.seen().subList(1, 3)) {
        assertThat(again.path()).isEqualTo("/real");
        assertThat(again.header("webhook-id")).isEqualTo(real.header("webhook-id"));
        JsonNode body = Json.parse(again.body());
        assertThat(body.path("id").asText()).isEqualTo(id);
        assertThat(body.path("status").asText()).as(body.toString()).isEqualTo("failed");
        assertThat(body.path("response").path("status").asInt()).isEqualTo(404);
        JsonNode first = Json.parse(real.body());
        assertThat(body.path("attempts")).isEqualTo(first.path("attempts"));
      }
    }
  }

  @Test
  void theCallbackOfATaskOutOfAttemptsCarriesItsLastResponse() throws Exception {
    String ns = "deadcb";
    TestTarget target = TestTarget.start();
    TestTarget receiver = TestTarget.start();
    try (target;
        receiver) {
      target.answering(s -> Answer.status(503));
      api.put("/v1/callbacks/" + ns, "{\"allowed_prefixes\": [\"" + receiver.url() + "/\"]}");
      String ep =
          endpoint(
              api,
              ns,
              name("dead"),
              target.url(),
              "\"max_attempts\": 2, \"backoff\": {\"kind\": \"schedule\", \"schedule_ms\": [50]},"
                  + " \"circuit_breaker\": {\"failures\": 0}");
      String id = submit(api, ep, "{\"callback_url\": \"" + receiver.url() + "/done\"}");
      JsonNode task = awaitEnd(api, ep, id);
      assertThat(task.path("status").asText()).as(task.toString()).isEqualTo("failed");
      await().atMost(Duration.ofSeconds(15)).until(() -> receiver.count() == 1);
      JsonNode body = Json.parse(receiver.seen().get(0).body());
      assertThat(body.path("status").asText()).as(body.toString()).isEqualTo("failed");
      assertThat(body.path("error").asText()).isEqualTo("out of attempts");
      assertThat(body.path("attempts")).hasSize(2);
      assertThat(body.path("response").path("status").asInt()).as(body.toString()).isEqualTo(503);
      // The whole last response, not only its status as the dead letter keeps it.
      assertThat(body.path("response").path("headers").isObject()).as(body.toString()).isTrue();
      assertThat(task.path("response").path("status").asInt()).isEqualTo(503);
    }
  }
}
