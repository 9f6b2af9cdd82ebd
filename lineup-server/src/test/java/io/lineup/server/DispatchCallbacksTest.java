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
import io.lineup.core.model.Backoff;
import io.lineup.core.model.DeadJob;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSettings;
import io.lineup.server.TestTarget.Answer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The circuit breaker of an endpoint, and callbacks signed the Standard Webhooks way. */
class DispatchCallbacksTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  static final String NS = "hooks";
  static Api api;

  @BeforeAll
  static void start() {
    api = server.admin();
  }

  /**
   * A Standard Webhooks verifier written from the specification: the signed content is {@code
   * id.timestamp.body}, the key is the base64 after {@code whsec_}, the header holds
   * space-separated {@code v1,<base64 HMAC-SHA256>} entries of which one must match, and the
   * timestamp must be within five minutes.
   */
  static boolean verifies(
      String secret, String id, String timestamp, String signatures, byte[] body) throws Exception {
    long ts = Long.parseLong(timestamp);
    if (Math.abs(System.currentTimeMillis() / 1000 - ts) > 300) {
      return false;
    }
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(
        new SecretKeySpec(
            Base64.getDecoder().decode(secret.substring("whsec_".length())), "HmacSHA256"));
    byte[] content = (id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8);
    byte[] signed = new byte[content.length + body.length];
    System.arraycopy(content, 0, signed, 0, content.length);
    System.arraycopy(body, 0, signed, content.length, body.length);
    byte[] expected = mac.doFinal(signed);
    for (String entry : signatures.split(" ")) {
      int comma = entry.indexOf(',');
      if (comma > 0 && entry.substring(0, comma).equals("v1")) {
        byte[] given = Base64.getDecoder().decode(entry.substring(comma + 1));
        if (MessageDigest.isEqual(expected, given)) {
          return true;
        }
      }
    }
    return false;
  }

  @Test
  void theCircuitBreakerOpensAfterConsecutiveFailuresThenProbesOnceAndCloses() {
    TestTarget target = TestTarget.start();
    try (target) {
      AtomicBoolean healthy = new AtomicBoolean(false);
      target.answering(s -> healthy.get() ? Answer.ok("{}") : Answer.status(503));
      String ep =
          endpoint(
              api,
              NS,
              name("breaker"),
              target.url(),
              "\"max_attempts\": 20, \"backoff\": {\"kind\": \"fixed\", \"initial_ms\": 10,"
                  + " \"jitter\": 0}, \"circuit_breaker\": {\"failures\": 3, \"cooldown_ms\": 5000}");
      String id = submit(api, ep, "{}");
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() ->
              api.get(ep)
                  .json()
                  .path("circuit_breaker_state")
                  .path("state")
                  .asText()
                  .equals("open"));
      int atOpening = target.count();
      assertThat(atOpening).isEqualTo(3);
      String endpointName = ep.substring(ep.lastIndexOf('/') + 1);
      assertThat(api.as(null).get("/metrics").text())
          .contains(
              "lineup_dispatch_breakers_open{endpoint=\""
                  + endpointName
                  + "\",namespace=\""
                  + NS
                  + "\"} 1.0");
      healthy.set(true);
      // Nothing is sent while the breaker is open: checked well inside its 5 s cool-down, which a
      // busy machine's slow answers above must not use up before the check.
      await()
          .pollDelay(Duration.ofMillis(800))
          .atMost(Duration.ofSeconds(2))
          .untilAsserted(() -> assertThat(target.count()).isEqualTo(atOpening));
      JsonNode task = awaitEnd(api, ep, id);
      assertThat(task.path("status").asText()).isEqualTo("succeeded");
      assertThat(target.count()).as("one probe after the cool-down").isEqualTo(atOpening + 1);
      await()
          .atMost(Duration.ofSeconds(3))
          .until(() ->
              api.get(ep)
                  .json()
                  .path("circuit_breaker_state")
                  .path("state")
                  .asText()
                  .equals("closed"));
      await()
          .atMost(Duration.ofSeconds(3))
          .untilAsserted(() ->
              assertThat(api.as(null).get("/metrics").text())
                  .contains(
                      "lineup_dispatch_breakers_open{endpoint=\""
                          + endpointName
                          + "\",namespace=\""
                          + NS
                          + "\"} 0.0"));
    }
  }

  @Test
  void aCancelledTaskCallsBackWithItsFinalRecordQueuedOrRunning() throws Exception {
    String ns = "hookscancel";
    TestTarget target = TestTarget.start();
    TestTarget receiver = TestTarget.start();
    try (target;
        receiver) {
      target.latency(20_000);
      Reply settings =
          api.put("/v1/callbacks/" + ns, "{\"allowed_prefixes\": [\"" + receiver.url() + "/\"]}");
      String secret = settings.field("secret");
      String ep = endpoint(api, ns, name("cbcancel"), target.url(), "\"concurrency\": 1");
      String callback = "{\"callback_url\": \"" + receiver.url() + "/cancelled\"}";
      String running = submit(api, ep, callback);
      await().atMost(Duration.ofSeconds(10)).until(() -> target.count() == 1);
      String queued = submit(api, ep, callback);
      assertThat(api.get(ep + "/tasks/" + queued).json().path("status").asText())
          .isEqualTo("queued");

      Reply cancelQueued = api.delete(ep + "/tasks/" + queued);
      Reply cancelRunning = api.delete(ep + "/tasks/" + running);
      assertThat(cancelQueued.status()).as(cancelQueued.toString()).isEqualTo(200);
      assertThat(cancelRunning.status()).as(cancelRunning.toString()).isEqualTo(200);

      await().atMost(Duration.ofSeconds(15)).until(() -> receiver.count() >= 2);
      Map<String, JsonNode> byTask = new HashMap<>();
      for (TestTarget.Seen seen : receiver.seen()) {
        assertThat(
                verifies(
                    secret,
                    seen.header("webhook-id"),
                    seen.header("webhook-timestamp"),
                    seen.header("webhook-signature"),
                    seen.body()))
            .isTrue();
        JsonNode record = io.lineup.server.http.Json.parse(seen.body());
        byTask.put(record.path("id").asText(), record);
      }
      assertThat(byTask).containsOnlyKeys(queued, running);
      assertThat(byTask.get(queued).path("status").asText()).isEqualTo("cancelled");
      assertThat(byTask.get(queued).path("attempts")).isEmpty();
      assertThat(byTask.get(running).path("status").asText()).isEqualTo("cancelled");
      assertThat(byTask.get(running).path("response").isNull()).isTrue();
      // One callback per task: the aborted request ends nothing else.
      await()
          .pollDelay(Duration.ofMillis(500))
          .atMost(Duration.ofSeconds(2))
          .untilAsserted(() -> assertThat(receiver.count()).isEqualTo(2));
      assertThat(target.count()).as("the cancelled queued task was never sent").isEqualTo(1);
    }
  }

  @Test
  void aCallbackIsSignedRetriedAfterAFailureAndVerifiedAndATamperedBodyFails() throws Exception {
    TestTarget target = TestTarget.start();
    TestTarget receiver = TestTarget.start();
    try (target;
        receiver) {
      AtomicInteger calls = new AtomicInteger();
      receiver.answering(s -> calls.incrementAndGet() == 1 ? Answer.status(500) : Answer.ok("{}"));
      Reply settings =
          api.put(
              "/v1/callbacks/" + NS, "{\"allowed_prefixes\": [\"" + receiver.url() + "/hooks/\"]}");
      assertThat(settings.status()).as(settings.toString()).isEqualTo(200);
      String secret = settings.field("secret");
      assertThat(secret).startsWith("whsec_");
      assertThat(api.get("/v1/callbacks/" + NS).text()).doesNotContain(secret);
      String ep = endpoint(api, NS, name("cb"), target.url(), "");
      String id = submit(api, ep, "{\"callback_url\": \"" + receiver.url() + "/hooks/done?x=1\"}");
      await().atMost(Duration.ofSeconds(15)).until(() -> receiver.count() >= 2);
      List<TestTarget.Seen> seen = receiver.seen();
      TestTarget.Seen delivered = seen.get(1);
      assertThat(delivered.path()).isEqualTo("/hooks/done?x=1");
      assertThat(delivered.header("webhook-id")).isEqualTo(seen.get(0).header("webhook-id"));
      assertThat(
              verifies(
                  secret,
                  delivered.header("webhook-id"),
                  delivered.header("webhook-timestamp"),
                  delivered.header("webhook-signature"),
                  delivered.body()))
          .isTrue();
      byte[] tampered =
          delivered.bodyText().replace("succeeded", "failed").getBytes(StandardCharsets.UTF_8);
      assertThat(tampered).isNotEqualTo(delivered.body());
      assertThat(
              verifies(
                  secret,
                  delivered.header("webhook-id"),
                  delivered.header("webhook-timestamp"),
                  delivered.header("webhook-signature"),
                  tampered))
          .isFalse();
      JsonNode record = io.lineup.server.http.Json.parse(delivered.body());
      assertThat(record.path("id").asText()).isEqualTo(id);
      assertThat(record.path("status").asText()).isEqualTo("succeeded");
      assertThat(record.path("response").path("status").asInt()).isEqualTo(200);

      // Rotation: the new secret signs, and the old one still verifies until the next rotation.
      Reply rotated =
          api.put(
              "/v1/callbacks/" + NS,
              "{\"allowed_prefixes\": [\""
                  + receiver.url()
                  + "/hooks/\"], \"rotate_secret\": true}");
      String newSecret = rotated.field("secret");
      assertThat(newSecret).isNotEqualTo(secret);
      submit(api, ep, "{\"callback_url\": \"" + receiver.url() + "/hooks/again\"}");
      await().atMost(Duration.ofSeconds(15)).until(() -> receiver.count() >= 3);
      TestTarget.Seen third = receiver.seen().get(2);
      for (String s : List.of(secret, newSecret)) {
        assertThat(
                verifies(
                    s,
                    third.header("webhook-id"),
                    third.header("webhook-timestamp"),
                    third.header("webhook-signature"),
                    third.body()))
            .as("signed for " + (s.equals(secret) ? "the old" : "the new") + " secret")
            .isTrue();
      }
    }
  }

  @Test
  void aCallbackThatKeepsFailingIsDeadLettered() {
    String ns = "hooksdead";
    TestTarget target = TestTarget.start();
    TestTarget receiver = TestTarget.start();
    try (target;
        receiver) {
      receiver.answering(s -> Answer.status(503));
      api.put("/v1/callbacks/" + ns, "{\"allowed_prefixes\": [\"" + receiver.url() + "/\"]}");
      String ep = endpoint(api, ns, name("cbdead"), target.url(), "");
      // The server gives the callback queue 10 attempts from 1 s apart when it starts following
      // the namespace; here the engine's settings make that 3 attempts 50 ms apart (the queue is
      // reserved: the queue routes refuse it).
      QueueName callbacks = QueueName.of(ns, "dispatch-callbacks");
      try (Lineup engine = Lineup.connect(LineupOptions.builder(server.redis().uri()).build())) {
        engine.configure(
            callbacks,
            QueueSettings.builder()
                .maxAttempts(3)
                .backoff(
                    new Backoff(
                        Backoff.Kind.FIXED, Duration.ofMillis(50), Duration.ofMillis(50), 0))
                .build());
        String id = submit(api, ep, "{\"callback_url\": \"" + receiver.url() + "/done\"}");
        await().atMost(Duration.ofSeconds(15)).until(() -> engine.stats(callbacks).dead() == 1);
        assertThat(receiver.count()).isEqualTo(3);
        DeadJob letter = engine.deadLetters(callbacks, 0, 1).jobs().get(0);
        assertThat(letter.attempts()).isEqualTo(3);
        assertThat(new String(letter.payload(), StandardCharsets.UTF_8)).contains(id);
        assertThat(letter.lastError()).contains("503");
      }
    }
  }
}
