package io.lineup.server;

import static io.lineup.server.DispatchFixtures.token;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.testing.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The running view of a queue shows every leased job with the consumer that holds it, page by page
 * in lease deadline order, and the consumers view shows who leased, acked and waits in the last
 * minute.
 */
class RunningAndConsumersTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  static final String NS = "running";

  private static String newQueue() {
    return "/v1/queues/" + NS + "/" + RedisServerExtension.uniqueName("q").replace(':', '-');
  }

  private static void publish(Api api, String queue, int n) {
    for (int i = 0; i < n; i++) {
      Reply published = api.post(queue + "/jobs", "{\"payload\": " + i + "}");
      assertThat(published.status()).as(published.toString()).isEqualTo(201);
    }
  }

  private static JsonNode lease(Api api, String queue, String body) {
    Reply leased = api.post(queue + "/leases", body);
    assertThat(leased.status()).as(leased.toString()).isEqualTo(200);
    return leased.json().path("jobs");
  }

  @Test
  void theRunningViewPagesThroughTheLeasedJobsWithTheirConsumersAttemptsAndDeadlines() {
    Api admin = server.admin();
    String queue = newQueue();
    publish(admin, queue, 3);
    JsonNode named = lease(admin, queue, "{\"count\": 2, \"consumer\": \"worker-a\"}");
    JsonNode unnamed = lease(admin, queue, "{\"count\": 1}");
    assertThat(named).hasSize(2);

    Reply first = admin.get(queue + "/running?limit=2");
    assertThat(first.status()).as(first.toString()).isEqualTo(200);
    JsonNode firstJobs = first.json().path("jobs");
    assertThat(firstJobs).hasSize(2);
    String cursor = first.field("next_cursor");
    assertThat(cursor).isNotNull();
    Reply second = admin.get(queue + "/running?limit=2&cursor=" + cursor);
    JsonNode secondJobs = second.json().path("jobs");
    assertThat(secondJobs).hasSize(1);
    assertThat(second.json().path("next_cursor").isNull()).isTrue();

    List<JsonNode> all = new ArrayList<>();
    firstJobs.forEach(all::add);
    secondJobs.forEach(all::add);
    List<Long> deadlines = all.stream().map(j -> j.path("lease_deadline_at").asLong()).toList();
    assertThat(deadlines).isSorted();
    for (JsonNode job : all) {
      assertThat(job.path("attempt").asInt()).isEqualTo(1);
      assertThat(job.path("leased_at").asLong()).isPositive();
      assertThat(job.path("lease_deadline_at").asLong())
          .isGreaterThan(job.path("leased_at").asLong());
      String id = job.path("id").asText();
      if (id.equals(unnamed.get(0).path("id").asText())) {
        assertThat(job.path("consumer").asText()).startsWith("admin@");
      } else {
        assertThat(job.path("consumer").asText()).isEqualTo("worker-a");
      }
    }
  }

  @Test
  void anAckedJobLeavesTheRunningViewAndCountsForItsConsumer() {
    Api admin = server.admin();
    String queue = newQueue();
    publish(admin, queue, 2);
    JsonNode jobs = lease(admin, queue, "{\"count\": 2, \"consumer\": \"worker-b\"}");
    JsonNode acked = jobs.get(0);
    Reply ack =
        admin.post(
            queue + "/jobs/" + acked.path("id").asText() + "/ack",
            "{\"token\": \"" + acked.path("token").asText() + "\"}");
    assertThat(ack.status()).as(ack.toString()).isEqualTo(204);

    JsonNode running = admin.get(queue + "/running").json().path("jobs");
    assertThat(running).hasSize(1);
    assertThat(running.get(0).path("id").asText()).isEqualTo(jobs.get(1).path("id").asText());

    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> {
          JsonNode consumer = consumer(admin, queue, "worker-b");
          assertThat(consumer).isNotNull();
          assertThat(consumer.path("leased_last_minute").asLong()).isEqualTo(2);
          assertThat(consumer.path("acked_last_minute").asLong()).isEqualTo(1);
          assertThat(consumer.path("waiting").asLong()).isZero();
        });
  }

  @Test
  void aConsumerWaitingInALongPollIsShownAsWaiting() {
    Api admin = server.admin();
    String queue = newQueue();
    publish(admin, queue, 1);
    lease(admin, queue, "{\"count\": 1}");
    CompletableFuture<Reply> poll =
        CompletableFuture.supplyAsync(
            () -> admin.post(queue + "/leases", "{\"wait_ms\": 20000, \"consumer\": \"poller\"}"));
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> {
          JsonNode consumer = consumer(admin, queue, "poller");
          assertThat(consumer).isNotNull();
          assertThat(consumer.path("waiting").asLong()).isEqualTo(1);
        });
    publish(admin, queue, 1);
    assertThat(poll.join().status()).isEqualTo(200);
  }

  @Test
  void aReadTokenSeesRunningJobsAndConsumersButCannotLease() {
    Api admin = server.admin();
    Api reader = admin.as(token(admin, NS, "[\"read\"]", 0));
    String queue = newQueue();
    publish(admin, queue, 1);
    lease(admin, queue, "{\"count\": 1, \"consumer\": \"worker-c\"}");
    assertThat(reader.get(queue + "/running").json().path("jobs")).hasSize(1);
    assertThat(reader.get(queue + "/consumers").status()).isEqualTo(200);
    assertThat(reader.post(queue + "/leases", "{}").status()).isEqualTo(403);
  }

  @Test
  void badPagingOrConsumerNamesAreRefusedWithJsonErrors() {
    Api admin = server.admin();
    String queue = newQueue();
    publish(admin, queue, 1);
    for (String query :
        new String[] {
          "?limit=0", "?limit=101", "?limit=x", "?cursor=bm90LWEtY3Vyc29y", "?cursor=!!"
        }) {
      Reply refused = admin.get(queue + "/running" + query);
      assertThat(refused.status()).as(query).isEqualTo(400);
      assertThat(refused.field("error")).isEqualTo("invalid_field");
    }
    Reply badName = admin.post(queue + "/leases", "{\"consumer\": \"two words\"}");
    assertThat(badName.status()).isEqualTo(400);
    assertThat(badName.field("field")).isEqualTo("consumer");
    assertThat(admin.get("/v1/queues/" + NS + "/never-used/running").status()).isEqualTo(404);
    assertThat(admin.get("/v1/queues/" + NS + "/never-used/consumers").status()).isEqualTo(404);
  }

  private static JsonNode consumer(Api api, String queue, String name) {
    for (JsonNode c : api.get(queue + "/consumers").json().path("consumers")) {
      if (c.path("name").asText().equals(name)) {
        return c;
      }
    }
    return null;
  }
}
