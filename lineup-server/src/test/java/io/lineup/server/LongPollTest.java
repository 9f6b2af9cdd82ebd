package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Long-poll leases: many waiters on one server, prompt delivery, and clients that go away. */
class LongPollTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  static final int WAITERS = 200;

  /** Jobs published one by one to time their delivery. */
  static final int TIMED_JOBS = 20;

  static Api api;

  @BeforeAll
  static void connect() {
    api = server.admin();
  }

  @Test
  void twoHundredWaitingConsumersEachGetOneJobAndAPublishedJobReachesOnePromptly()
      throws Exception {
    String queue = "/v1/queues/poll/many";
    List<Long> answeredAt = java.util.Collections.synchronizedList(new ArrayList<>());
    List<CompletableFuture<Reply>> waiters = new ArrayList<>();
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < WAITERS; i++) {
        waiters.add(
            CompletableFuture.supplyAsync(
                () -> {
                  Reply reply =
                      api.send(
                          "POST",
                          queue + "/leases",
                          "{\"count\": 1, \"wait_ms\": 60000}",
                          Duration.ofSeconds(90));
                  answeredAt.add(System.nanoTime());
                  return reply;
                },
                threads));
      }
      await()
          .atMost(Duration.ofSeconds(30))
          .failFast(
              "a consumer was answered before any job was published (its answer is printed)",
              () -> answeredEarly(waiters))
          .until(() -> RedisInfo.blockedClients(server.redisProcess()) == WAITERS);
      assertThat(server.running().waitingLeases()).isEqualTo(WAITERS);

      // Jobs published one at a time: each wakes exactly one of the waiting consumers.
      List<Double> deliveryMillis = new ArrayList<>();
      List<Double> publishMillis = new ArrayList<>();
      for (int i = 1; i <= TIMED_JOBS; i++) {
        int delivered = i;
        long publishedAt = System.nanoTime();
        assertThat(api.post(queue + "/jobs", "{\"payload\": \"timed\"}").status()).isEqualTo(201);
        publishMillis.add((System.nanoTime() - publishedAt) / 1e6);
        await().atMost(Duration.ofSeconds(10)).until(() -> answeredAt.size() >= delivered);
        deliveryMillis.add((answeredAt.get(delivered - 1) - publishedAt) / 1e6);
      }
      Thread.sleep(200);
      assertThat(waiters.stream().filter(CompletableFuture::isDone).count())
          .as("each job wakes one consumer")
          .isEqualTo(TIMED_JOBS);
      List<Double> sorted = deliveryMillis.stream().sorted().toList();
      System.out.printf(
          "With %d consumers waiting, a published job reached one in %.2f ms (median of %d),"
              + " %.2f ms at most, counted from sending the publish request; the publish itself"
              + " took %.2f ms (median)%n",
          WAITERS,
          sorted.get(sorted.size() / 2),
          TIMED_JOBS,
          sorted.get(sorted.size() - 1),
          publishMillis.stream().sorted().toList().get(TIMED_JOBS / 2));

      StringBuilder rest = new StringBuilder("[");
      for (int i = TIMED_JOBS; i < WAITERS; i++) {
        rest.append(i > TIMED_JOBS ? "," : "").append("{\"payload\": ").append(i).append('}');
      }
      assertThat(api.post(queue + "/jobs", rest.append(']').toString()).status()).isEqualTo(201);

      Set<String> ids = new HashSet<>();
      for (CompletableFuture<Reply> waiter : waiters) {
        Reply reply = waiter.get(60, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        JsonNode jobs = reply.json().get("jobs");
        assertThat(jobs).hasSize(1);
        ids.add(jobs.get(0).get("id").asText());
      }
      assertThat(ids).as("every job went to exactly one consumer").hasSize(WAITERS);
    }
  }

  @Test
  void aClientThatDisconnectsMidWaitDoesNotTakeAJob() {
    String queue = "/v1/queues/poll/disconnect";
    try (RawHttp client = RawHttp.connect(server.port())) {
      client.post(
          queue + "/leases", server.running().adminToken(), "{\"count\": 1, \"wait_ms\": 60000}");
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> RedisInfo.blockedClients(server.redisProcess()) == 1);
    }
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> {
          assertThat(server.running().waitingLeases()).isZero();
          assertThat(RedisInfo.blockedClients(server.redisProcess())).isZero();
        });

    Reply published = api.post(queue + "/jobs", "{\"payload\": \"keep me\"}");
    String id = published.field("id");
    Reply waiting = api.get(queue + "/jobs/" + id);
    assertThat(waiting.field("state")).isEqualTo("READY");
    assertThat(waiting.json().get("attempts").asInt()).isZero();

    Reply leased = api.post(queue + "/leases", "{\"wait_ms\": 5000}");
    assertThat(leased.status()).isEqualTo(200);
    JsonNode job = leased.json().get("jobs").get(0);
    assertThat(job.get("id").asText()).isEqualTo(id);
    assertThat(job.get("attempt").asInt()).as("its first delivery").isEqualTo(1);
  }

  @Test
  void theConnectionOfAnAnsweredLongPollIsReusedForTheNextRequest() {
    String queue = "/v1/queues/poll/keepalive";
    api.post(queue + "/jobs", "{\"payload\": 1}");
    try (RawHttp client = RawHttp.connect(server.port())) {
      String first =
          client
              .post(queue + "/leases", server.running().adminToken(), "{\"wait_ms\": 2000}")
              .readAll();
      assertThat(first).startsWith("HTTP/1.1 200");
      String second =
          client
              .post(queue + "/leases", server.running().adminToken(), "{\"wait_ms\": 300}")
              .readAll();
      assertThat(second).startsWith("HTTP/1.1 204");
      String third = client.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n").readAll();
      assertThat(third).startsWith("HTTP/1.1 200");
    }
  }

  /** Whether a waiting consumer was answered already; prints the first such answer or failure. */
  private static boolean answeredEarly(List<CompletableFuture<Reply>> waiters) {
    for (CompletableFuture<Reply> waiter : waiters) {
      if (waiter.isDone()) {
        System.out.println(
            "Answered before any publish: "
                + (waiter.isCompletedExceptionally()
                    ? waiter.exceptionNow().toString()
                    : waiter.resultNow().toString()));
        return true;
      }
    }
    return false;
  }
}
