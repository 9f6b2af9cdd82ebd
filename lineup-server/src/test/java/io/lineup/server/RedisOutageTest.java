package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Redis going away gives fast 503s, not hangs; Redis coming back needs no server restart. */
class RedisOutageTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  /**
   * The bound for an answer while Redis is down: under the engine's 5 s reply timeout (and the
   * lease's 10 s wait), so that an answer that waited for either fails, with room for a busy
   * machine's own delays (issue 49; at rest the answers take a few ms).
   */
  static final Duration ANSWER_WITHIN = Duration.ofSeconds(4);

  static Api api;

  @BeforeAll
  static void connect() {
    api = server.admin();
  }

  @Test
  void whileRedisIsStoppedCallsAnswer503AtOnceAndWorkAgainWhenItReturns() {
    assertThat(api.post("/v1/queues/shop/outage/jobs", "{\"payload\": 1}").status()).isEqualTo(201);

    server.redisProcess().stop();
    try {
      assertAnswers503Within(ANSWER_WITHIN, "GET", "/ready", null, "redis_unavailable");
      assertAnswers503Within(
          ANSWER_WITHIN,
          "POST",
          "/v1/queues/shop/outage/jobs",
          "{\"payload\": 2}",
          "redis_unavailable");
      assertAnswers503Within(
          ANSWER_WITHIN,
          "POST",
          "/v1/queues/shop/outage/leases",
          "{\"wait_ms\": 10000}",
          "redis_unavailable");
      assertAnswers503Within(
          ANSWER_WITHIN, "GET", "/v1/queues/shop/outage/jobs/x", null, "redis_unavailable");
      assertAnswers503Within(ANSWER_WITHIN, "GET", "/v1/queues", null, "redis_unavailable");
      assertThat(api.get("/health").status()).as("the process is still up").isEqualTo(200);
    } finally {
      server.redisProcess().start();
    }

    await()
        .atMost(Duration.ofSeconds(20))
        .untilAsserted(() -> assertThat(api.get("/ready").status()).isEqualTo(200));
    Reply published = api.post("/v1/queues/shop/outage/jobs", "{\"payload\": 3}");
    assertThat(published.status()).isEqualTo(201);
    Reply leased = api.post("/v1/queues/shop/outage/leases", "{\"wait_ms\": 5000}");
    assertThat(leased.status()).isEqualTo(200);
    assertThat(leased.json().get("jobs").get(0).get("payload").asInt()).isEqualTo(3);
  }

  @Test
  void aLongPollWaitingWhenRedisStopsIsAnswered503() throws Exception {
    CompletableFuture<Reply> waiting =
        CompletableFuture.supplyAsync(() ->
            api.send(
                "POST",
                "/v1/queues/shop/outage-wait/leases",
                "{\"wait_ms\": 20000}",
                Duration.ofSeconds(60)));
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> RedisInfo.blockedClients(server.redisProcess()) == 1);
    long stoppedAt = System.nanoTime();
    server.redisProcess().stop();
    try {
      Reply reply = waiting.get(60, java.util.concurrent.TimeUnit.SECONDS);
      Duration took = Duration.ofNanos(System.nanoTime() - stoppedAt);
      System.out.println(
          "A waiting long-poll answered "
              + reply.status()
              + " "
              + took.toMillis()
              + " ms after Redis stopped");
      assertThat(reply.status()).isEqualTo(503);
      assertThat(reply.field("error")).isEqualTo("redis_unavailable");
    } finally {
      server.redisProcess().start();
      await()
          .atMost(Duration.ofSeconds(20))
          .untilAsserted(() -> assertThat(api.get("/ready").status()).isEqualTo(200));
    }
  }

  private static void assertAnswers503Within(
      Duration bound, String method, String path, String body, String error) {
    long start = System.nanoTime();
    Reply reply = api.send(method, path, body, bound);
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    System.out.printf(
        "Redis stopped: %s %s answered %d in %.1f ms%n",
        method, path, reply.status(), took.toNanos() / 1e6);
    assertThat(reply.status()).as(method + " " + path + ": " + reply).isEqualTo(503);
    assertThat(reply.field("error")).isEqualTo(error);
    assertThat(reply.field("message"))
        .as("says Redis is unavailable once")
        .doesNotContainPattern("(?s)Redis is unavailable.*Redis is unavailable");
    assertThat(reply.header("Retry-After")).isEqualTo("1");
    assertThat(took).as(method + " " + path + " answered in").isLessThan(bound);
  }
}
