package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.testing.RedisServerExtension;
import java.time.Duration;

/** Shared steps of the dispatch tests: endpoints, tasks, namespace tokens. */
final class DispatchFixtures {
  private DispatchFixtures() {}

  /** A fresh endpoint name. */
  static String name(String prefix) {
    return RedisServerExtension.uniqueName(prefix).replace(':', '-');
  }

  /** Creates an endpoint with these settings (a JSON object's fields, without braces). */
  static String endpoint(Api api, String ns, String name, String target, String settings) {
    String body =
        "{\"base_url\": \"" + target + "\"" + (settings.isBlank() ? "" : ", " + settings) + "}";
    Reply reply = api.put("/v1/endpoints/" + ns + "/" + name, body);
    assertThat(reply.status()).as(reply.toString()).isIn(200, 201);
    return "/v1/endpoints/" + ns + "/" + name;
  }

  /** Submits a task; returns its id. */
  static String submit(Api api, String endpoint, String task) {
    Reply reply = api.post(endpoint + "/tasks", task);
    assertThat(reply.status()).as(reply.toString()).isEqualTo(202);
    return reply.field("id");
  }

  /**
   * Waits for the task to end and returns it. The first read is at once (no poll delay: a test
   * reads hundreds of tasks that have ended, one after another) and each read is a long poll that
   * the server answers when the task ends, so no fixed wait is added.
   */
  static JsonNode awaitEnd(Api api, String endpoint, String id) {
    JsonNode[] last = new JsonNode[1];
    await()
        .atMost(Duration.ofSeconds(30))
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(20))
        .until(() -> {
          Reply reply = api.get(endpoint + "/tasks/" + id + "?wait_ms=2000");
          last[0] = reply.json();
          String status = last[0].path("status").asText();
          return !status.equals("queued") && !status.equals("running");
        });
    return last[0];
  }

  /**
   * When Lineup decided to send each attempt of these tasks, once each has ended: the attempts'
   * {@code started_at} (epoch ms), which for a rate-limited endpoint is the time of the slot the
   * request took in the shared rate log, by the Redis clock.
   */
  static java.util.List<Long> sendTimes(Api api, String endpoint, java.util.List<String> ids) {
    java.util.List<Long> times = new java.util.ArrayList<>();
    for (String id : ids) {
      for (JsonNode attempt : awaitEnd(api, endpoint, id).path("attempts")) {
        times.add(attempt.path("started_at").asLong());
      }
    }
    return times;
  }

  /** Registers a namespace (if new) and issues a token; returns the token. */
  static String token(Api admin, String ns, String scopes, int maxPriority) {
    admin.post("/v1/admin/namespaces", "{\"name\": \"" + ns + "\"}");
    Reply reply =
        admin.post(
            "/v1/admin/tokens",
            "{\"namespace\": \""
                + ns
                + "\", \"scopes\": "
                + scopes
                + ", \"max_priority\": "
                + maxPriority
                + "}");
    assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
    return reply.field("token");
  }
}
