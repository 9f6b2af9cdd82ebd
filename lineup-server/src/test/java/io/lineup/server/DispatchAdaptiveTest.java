package io.lineup.server;

import static io.lineup.server.DispatchFixtures.awaitEnd;
import static io.lineup.server.DispatchFixtures.endpoint;
import static io.lineup.server.DispatchFixtures.name;
import static io.lineup.server.DispatchFixtures.submit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Adaptive concurrency of an endpoint over HTTP: the limit lives in Redis, every instance reports
 * its requests' answers to it, and {@code GET} shows it with why it last moved. Asserts the
 * decisions (limits and reasons), never how fast. Runs on a standalone Redis ({@link
 * DispatchAdaptiveOnStandaloneTest}) and on a Redis Cluster ({@link
 * DispatchAdaptiveOnClusterTest}); the engine's AdaptiveLimitsTest drives windows with a test
 * clock.
 */
abstract class DispatchAdaptiveTest {
  static final String NS = "adaptive";

  /** The class's server. */
  abstract LineupServerExtension server();

  /** The Redis clock now, epoch ms: the clock the limit's windows are counted on. */
  long redisNow() {
    try {
      // TIME answers an array, which the process's inline command does not read: one text.
      String ms =
          server()
              .redis()
              .nodes()
              .get(0)
              .command(
                  "EVAL \"local t = redis.call('TIME') return t[1] .. string.format('%06d',"
                      + " t[2])\" 0");
      return Long.parseLong(ms.trim()) / 1000;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void twoInstancesAnswered429ByTheSameOverloadDecreaseTheSharedLimitOncePerWindow() {
    Api one = server().admin();
    Api two = Api.adminOf(server().startAnother());
    TestTarget target = TestTarget.start();
    try (target) {
      target.answering(seen -> new TestTarget.Answer(429, 50, null, "{}"));
      String name = name("overload");
      // The longest window, so the whole test most likely falls in one.
      long window = 600_000;
      String settings =
          "\"concurrency\": 10, \"max_attempts\": 1, \"circuit_breaker\": {\"failures\": 0},"
              + " \"adaptive\": {\"min\": 2, \"max\": 10, \"initial\": 10,"
              + " \"target_latency_ms\": 1000, \"window_ms\": "
              + window
              + "}";
      String ep = endpoint(one, NS, name, target.url(), settings + ", \"paused\": true");
      await()
          .atMost(Duration.ofSeconds(5))
          .until(() -> two.get(ep).json().path("paused").asBoolean());
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        ids.add(submit(i % 2 == 0 ? one : two, ep, "{}"));
      }
      long before = redisNow();
      endpoint(one, NS, name, target.url(), settings);
      for (String id : ids) {
        assertThat(awaitEnd(one, ep, id).path("status").asText()).isEqualTo("failed");
      }
      long after = redisNow();

      JsonNode adaptive = two.get(ep).json().path("adaptive");
      long windows = after / window - before / window + 1;
      System.out.printf(
          "20 answers of 429 on two instances over %d window(s): limit %d, reason %s%n",
          windows, adaptive.path("limit").asInt(), adaptive.path("reason").asText());
      assertThat(target.count()).isEqualTo(20);
      assertThat(adaptive.path("reason").asText()).isEqualTo("decrease: 429");
      if (windows == 1) {
        // Twenty 429s, on two instances, in one window: one decrease, 10 x 0.8.
        assertThat(adaptive.path("limit").asInt()).isEqualTo(8);
      } else {
        // The run crossed a window's edge: one decrease in each.
        assertThat(adaptive.path("limit").asInt()).isEqualTo(6);
      }
      assertThat(one.get(ep).json().path("adaptive").path("limit").asInt())
          .isEqualTo(adaptive.path("limit").asInt());
      String metrics = one.as(null).get("/metrics").text();
      assertThat(metrics)
          .contains(
              "lineup_endpoint_adaptive_limit{endpoint=\""
                  + name
                  + "\",namespace=\""
                  + NS
                  + "\"} "
                  + adaptive.path("limit").asInt());
      // Each decrease was made by one instance's report: summed over both, the decreases.
      double down = downMoves(one, name) + downMoves(two, name);
      assertThat(down).isEqualTo(windows == 1 ? 1.0 : 2.0);
    }
  }

  /**
   * An instance's {@code lineup_endpoint_adaptive_moves_total} down for the endpoint; 0 if none.
   */
  private static double downMoves(Api api, String endpoint) {
    String prefix =
        "lineup_endpoint_adaptive_moves_total{direction=\"down\",endpoint=\"" + endpoint + "\"";
    for (String line : api.as(null).get("/metrics").text().split("\n")) {
      if (line.startsWith(prefix)) {
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return 0;
  }

  @Test
  void slowAnswersLowerTheLimitAndFastOnesRaiseItAgainWithinItsBounds() {
    Api api = server().admin();
    TestTarget target = TestTarget.start();
    try (target) {
      // Far from the target both ways, so a busy machine's own delays decide nothing.
      target.latency(600);
      String name = name("latency");
      String ep =
          endpoint(
              api,
              NS,
              name,
              target.url(),
              "\"concurrency\": 4, \"adaptive\": {\"min\": 1, \"max\": 3, \"initial\": 3,"
                  + " \"target_latency_ms\": 250, \"window_ms\": 100}");
      List<String> slow = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        slow.add(submit(api, ep, "{}"));
      }
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() ->
              api.get(ep)
                  .json()
                  .path("adaptive")
                  .path("reason")
                  .asText()
                  .startsWith("decrease: latency"));
      assertThat(api.get(ep).json().path("adaptive").path("limit").asInt()).isLessThan(3);
      slow.forEach(id -> awaitEnd(api, ep, id));
      assertThat(target.maxInFlight()).as("never above max").isLessThanOrEqualTo(3);

      target.latency(0);
      for (int round = 0; round < 100 && limit(api, ep) < 3; round++) {
        List<String> fast = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
          fast.add(submit(api, ep, "{}"));
        }
        fast.forEach(id -> awaitEnd(api, ep, id));
      }
      JsonNode adaptive = api.get(ep).json().path("adaptive");
      assertThat(adaptive.path("limit").asInt()).isEqualTo(3);
      assertThat(adaptive.path("reason").asText()).startsWith("increase: latency");
      assertThat(adaptive.path("reason").asText()).endsWith("<=250ms");
    }
  }

  private static int limit(Api api, String ep) {
    return api.get(ep).json().path("adaptive").path("limit").asInt();
  }

  @Test
  void a429WithRetryAfterHoldsTheEndpointAndSaysSo() {
    Api api = server().admin();
    TestTarget target = TestTarget.start();
    try (target) {
      target.answering(seen -> new TestTarget.Answer(429, 0, "30", "{}"));
      String ep =
          endpoint(
              api,
              NS,
              name("hold"),
              target.url(),
              "\"max_attempts\": 1, \"retry_after_cap_ms\": 5000,"
                  + " \"adaptive\": {\"min\": 1, \"max\": 4, \"initial\": 4,"
                  + " \"target_latency_ms\": 1000}");
      String first = submit(api, ep, "{}");
      awaitEnd(api, ep, first);
      JsonNode adaptive = api.get(ep).json().path("adaptive");
      // Held for the endpoint's retry_after_cap_ms, not the 30 s asked.
      assertThat(adaptive.path("reason").asText())
          .isEqualTo("decrease: 429, hold: retry-after 5000ms");
      assertThat(adaptive.path("limit").asInt()).isEqualTo(3);
      assertThat(adaptive.path("hold_until").asLong())
          .isEqualTo(adaptive.path("moved_at").asLong() + 5000);
      assertThat(adaptive.path("window_ms").asLong()).as("twice the target").isEqualTo(2000);

      String held = submit(api, ep, "{}");
      JsonNode ended = awaitEnd(api, ep, held);
      assertThat(ended.path("attempts").get(0).path("started_at").asLong())
          .as("not sent before the hold ended")
          .isGreaterThanOrEqualTo(adaptive.path("hold_until").asLong());
    }
  }

  @Test
  void theEtaOfAWaitingTaskFollowsTheAdaptiveLimit() {
    Api api = server().admin();
    TestTarget target = TestTarget.start();
    try (target) {
      // Requests that outlast the test: 4 in flight, the rest wait; nothing completes, so the
      // ETA is the expected service time's: limit requests every expected_service_ms.
      target.latency(25_000);
      String name = name("eta");
      String settings =
          "\"concurrency\": 4, \"expected_service_ms\": 1000, \"max_attempts\": 1,"
              + " \"adaptive\": {\"min\": 1, \"max\": %d, \"initial\": %<d,"
              + " \"target_latency_ms\": 30000}";
      String ep = endpoint(api, NS, name, target.url(), settings.formatted(4));
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        ids.add(submit(api, ep, "{}"));
      }
      await().atMost(Duration.ofSeconds(10)).until(() -> target.inFlight() == 4);
      String last = ids.get(ids.size() - 1);
      JsonNode before = api.get(ep + "/tasks/" + last).json();
      assertThat(before.path("position").asLong()).isEqualTo(7);
      // Position 7: 8 to serve at 4 a second.
      assertThat(before.path("eta_ms").asLong()).isEqualTo(2000);

      // The limit falls to 2 (its new max): the same place now waits twice as long.
      endpoint(api, NS, name, target.url(), settings.formatted(2));
      JsonNode after = api.get(ep + "/tasks/" + last).json();
      assertThat(api.get(ep).json().path("adaptive").path("limit").asInt()).isEqualTo(2);
      assertThat(after.path("eta_ms").asLong()).isEqualTo(4000);
    }
  }

  @Test
  void badAdaptiveSettingsAreRefusedWith400NamingTheField() {
    Api api = server().admin();
    String base = "{\"base_url\": \"https://api.example.com\", ";
    String[][] cases = {
      {
        "\"concurrency\": 5, \"adaptive\": {\"min\": 1, \"max\": 6, \"target_latency_ms\": 100}}",
        "adaptive.max"
      },
      {"\"adaptive\": {\"min\": 0, \"max\": 6, \"target_latency_ms\": 100}}", "adaptive.min"},
      {"\"adaptive\": {\"min\": 4, \"max\": 3, \"target_latency_ms\": 100}}", "adaptive.max"},
      {"\"adaptive\": {\"min\": 1, \"max\": 3}}", "adaptive.target_latency_ms"},
      {
        "\"adaptive\": {\"min\": 1, \"max\": 3, \"target_latency_ms\": 100, \"decrease\": 0.2}}",
        "adaptive.decrease"
      },
      {
        "\"adaptive\": {\"min\": 1, \"max\": 3, \"target_latency_ms\": 100, \"window_ms\": 50}}",
        "adaptive.window_ms"
      },
      {
        "\"adaptive\": {\"min\": 1, \"max\": 3, \"target_latency_ms\": 100, \"step\": 2}}",
        "adaptive.step"
      },
      {"\"adaptive\": 5}", "adaptive"},
    };
    for (String[] c : cases) {
      Reply reply = api.put("/v1/endpoints/" + NS + "/" + name("bad"), base + c[0]);
      assertThat(reply.status()).as(c[0] + " -> " + reply).isEqualTo(400);
      assertThat(reply.field("field")).as(c[0]).isEqualTo(c[1]);
    }
  }

  @Test
  void anEndpointWithoutAdaptiveShowsNoneAndTurningItOffRestoresTheFixedConcurrency() {
    Api api = server().admin();
    String name = name("off");
    String ep =
        endpoint(
            api,
            NS,
            name,
            "https://api.example.com",
            "\"concurrency\": 5, \"adaptive\": {\"min\": 1, \"max\": 5,"
                + " \"target_latency_ms\": 100}");
    JsonNode on = api.get(ep).json();
    assertThat(on.path("adaptive").path("limit").asInt()).isEqualTo(1);
    assertThat(on.path("adaptive").path("reason").asText()).isEqualTo("start: 1");
    assertThat(on.path("adaptive").path("decrease").asDouble()).isEqualTo(0.8);
    String queue = on.path("queue").asText();
    assertThat(
            api.get("/v1/queues/" + queue)
                .json()
                .path("settings")
                .path("concurrency_limit")
                .asInt())
        .isEqualTo(1);

    endpoint(api, NS, name, "https://api.example.com", "\"concurrency\": 5");

    assertThat(api.get(ep).json().path("adaptive").isNull()).isTrue();
    assertThat(
            api.get("/v1/queues/" + queue)
                .json()
                .path("settings")
                .path("concurrency_limit")
                .asInt())
        .isEqualTo(5);
  }
}
