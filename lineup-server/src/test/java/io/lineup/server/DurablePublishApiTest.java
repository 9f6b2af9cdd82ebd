package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Durable publishes over HTTP, on a Redis without replicas: asking for a replica is answered 503
 * {@code replication_timeout} naming the jobs, which were written all the same.
 */
class DurablePublishApiTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  static Api api;

  @BeforeAll
  static void connect() {
    api = server.admin();
  }

  @Test
  void aPublishAskingForAReplicaNobodyHasIsAnsweredReplicationTimeoutYetTheJobsAreWritten() {
    Reply reply =
        api.post(
            "/v1/queues/shop/durable/jobs?durable_replicas=1&durable_timeout_ms=100",
            "[{\"payload\": 1, \"id\": \"a\"}, {\"payload\": 2, \"id\": \"b\"}]");

    assertThat(reply.status()).as(reply.toString()).isEqualTo(503);
    assertThat(reply.field("error")).isEqualTo("replication_timeout");
    assertThat(reply.field("message")).contains("were written", "only 0 of 1 replicas");
    assertThat(reply.json().get("replicas_requested").asInt()).isEqualTo(1);
    assertThat(reply.json().get("replicas_acknowledged").asInt()).isZero();
    assertThat(reply.json().get("jobs").findValuesAsText("id")).containsExactly("a", "b");
    assertThat(api.get("/v1/queues/shop/durable/jobs/b").field("state")).isEqualTo("READY");
  }

  @Test
  void aPublishAskingForNoReplicaIsAnsweredAtOnceWhateverTheQueueSetting() {
    assertThat(api.patch("/v1/queues/shop/durable-default", "{\"durable_replicas\": 1}").status())
        .isEqualTo(200);
    assertThat(
            api.get("/v1/queues/shop/durable-default")
                .json()
                .at("/settings/durable_replicas")
                .asInt())
        .isEqualTo(1);

    Reply byDefault = api.post("/v1/queues/shop/durable-default/jobs", "{\"payload\": 1}");
    assertThat(byDefault.status()).as("the queue asks for a replica").isEqualTo(503);
    assertThat(byDefault.field("error")).isEqualTo("replication_timeout");

    Reply atOnce =
        api.post("/v1/queues/shop/durable-default/jobs?durable_replicas=0", "{\"payload\": 2}");
    assertThat(atOnce.status()).isEqualTo(201);
  }

  @Test
  void aDurabilityOutOfRangeIsRefusedNamingTheParameter() {
    Reply notANumber =
        api.post("/v1/queues/shop/durable-bad/jobs?durable_replicas=many", "{\"payload\": 1}");
    assertThat(notANumber.status()).isEqualTo(400);
    assertThat(notANumber.field("error")).isEqualTo("invalid_field");
    assertThat(notANumber.field("field")).isEqualTo("durable_replicas");

    Reply tooLong =
        api.post(
            "/v1/queues/shop/durable-bad/jobs?durable_replicas=1&durable_timeout_ms=60001",
            "{\"payload\": 1}");
    assertThat(tooLong.status()).isEqualTo(400);
    assertThat(tooLong.field("field")).isEqualTo("durable_timeout_ms");

    Reply timeoutAlone =
        api.post("/v1/queues/shop/durable-bad/jobs?durable_timeout_ms=10", "{\"payload\": 1}");
    assertThat(timeoutAlone.status()).isEqualTo(400);
    assertThat(timeoutAlone.field("field")).isEqualTo("durable_timeout_ms");
    assertThat(api.get("/v1/queues/shop/durable-bad").status())
        .as("nothing was published")
        .isEqualTo(404);
  }
}
