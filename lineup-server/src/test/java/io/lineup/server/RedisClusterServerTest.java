package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.testing.RedisClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The server pointed at a real three-master Redis Cluster by a comma list of nodes. */
class RedisClusterServerTest {
  @RegisterExtension
  static LineupServerExtension server =
      LineupServerExtension.on(RedisClusterExtension.sharedThreeMasters());

  static Api api;

  @BeforeAll
  static void connect() {
    api = server.admin();
  }

  @Test
  void queuesSpreadOverTheNodesPublishLeaseAckAndTokensWorkOnACluster() {
    for (String queue : new String[] {"orders", "emails", "reports", "images", "invoices"}) {
      String base = "/v1/queues/shop/" + queue;
      Reply published = api.post(base + "/jobs", "{\"payload\": {\"n\": 1}}");
      assertThat(published.status()).isEqualTo(201);
      Reply leased = api.post(base + "/leases", "{\"count\": 1, \"wait_ms\": 1000}");
      assertThat(leased.status()).isEqualTo(200);
      String id = leased.json().get("jobs").get(0).get("id").asText();
      String token = leased.json().get("jobs").get(0).get("token").asText();
      assertThat(api.post(base + "/jobs/" + id + "/ack", "{\"token\": \"" + token + "\"}").status())
          .isEqualTo(204);
      assertThat(api.get(base + "/jobs/" + id).field("state")).isEqualTo("DONE");
    }
    assertThat(api.get("/v1/queues").status()).isEqualTo(200);
    assertThat(api.get("/ready").status()).isEqualTo(200);
    assertThat(api.post("/v1/admin/namespaces", "{\"name\": \"shop\"}").status()).isEqualTo(201);
    assertThat(api.post("/v1/admin/namespaces", "{\"name\": \"shop\"}").status()).isEqualTo(409);
  }
}
