package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.redis.RedisProcess;
import java.io.IOException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Redis at its {@code maxmemory} (policy {@code noeviction}): publishes answer 503 {@code
 * redis_out_of_memory} and write nothing, consumers go on and free memory, publishes resume.
 */
class RedisOutOfMemoryApiTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  static final String QUEUE = "/v1/queues/shop/oom";
  static final String PAYLOAD = "\"" + "x".repeat(8 * 1024) + "\"";

  static Api api;

  @BeforeAll
  static void connect() {
    api = server.admin();
  }

  @Test
  void publishesAreRefusedAtTheLimitWhileConsumersGoOnAndFreeMemory() throws IOException {
    // Finished records go at once, so each ack gives its memory back.
    assertThat(api.patch(QUEUE, "{\"retention_ms\": 0}").status()).isEqualTo(200);
    // One job through every call the test makes, before the limit: the engine loads a script's
    // code into Redis at its first call (tens of KiB each, counted in used_memory), which would
    // otherwise eat into the room left below the limit at a moment that depends on timing.
    Reply warmUp = api.post(QUEUE + "/jobs", "{\"payload\": " + PAYLOAD + "}");
    assertThat(warmUp.status()).isEqualTo(201);
    Reply warmLease = api.post(QUEUE + "/leases", "{\"count\": 10}");
    var warmJob = warmLease.json().get("jobs").get(0);
    assertThat(
            api.post(
                    QUEUE + "/jobs/" + warmJob.get("id").asText() + "/ack",
                    "{\"token\": \"" + warmJob.get("token").asText() + "\"}")
                .status())
        .isEqualTo(204);
    assertThat(api.get(QUEUE).status()).isEqualTo(200);
    RedisProcess redis = server.redisProcess();
    // Room for about 240 jobs, a few of them taken by scripts the maintenance loop may still load.
    redis.command("CONFIG SET maxmemory " + (RedisInfo.usedMemory(redis) + 2 * 1024 * 1024));
    try {
      int published = 0;
      Reply refused = null;
      for (int i = 0; i < 500 && refused == null; i++) {
        Reply reply = api.post(QUEUE + "/jobs", "{\"payload\": " + PAYLOAD + "}");
        if (reply.status() == 201) {
          published++;
        } else {
          refused = reply;
        }
      }
      assertThat(refused).as("a publish past maxmemory is refused").isNotNull();
      assertThat(refused.status()).isEqualTo(503);
      assertThat(refused.field("error")).isEqualTo("redis_out_of_memory");
      assertThat(refused.header("Retry-After")).isEqualTo("1");
      assertThat(api.get(QUEUE).json().at("/counts/ready").asInt())
          .as("the refused publish wrote nothing")
          .isEqualTo(published);

      int consumed = 0;
      while (true) {
        Reply leased = api.post(QUEUE + "/leases", "{\"count\": 10}");
        if (leased.status() == 204) {
          break;
        }
        assertThat(leased.status()).as("leases go on at the limit: " + leased).isEqualTo(200);
        for (var job : leased.json().get("jobs")) {
          Reply ack =
              api.post(
                  QUEUE + "/jobs/" + job.get("id").asText() + "/ack",
                  "{\"token\": \"" + job.get("token").asText() + "\"}");
          assertThat(ack.status()).as("acks go on at the limit: " + ack).isEqualTo(204);
          consumed++;
        }
      }
      assertThat(consumed).isEqualTo(published);

      Reply after = api.post(QUEUE + "/jobs", "{\"payload\": " + PAYLOAD + "}");
      assertThat(after.status()).as("consuming freed memory: " + after).isEqualTo(201);
    } finally {
      redis.command("CONFIG SET maxmemory 0");
    }
  }
}
