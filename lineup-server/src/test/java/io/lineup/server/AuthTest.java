package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Who may do what: the admin token, namespace tokens with scopes and a maximum priority. */
class AuthTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  static LineupServer secondServer;
  static Api admin;

  @BeforeAll
  static void start() {
    secondServer = server.startAnother();
    admin = server.admin();
    for (String ns : new String[] {"shop", "blog"}) {
      assertThat(admin.post("/v1/admin/namespaces", "{\"name\": \"" + ns + "\"}").status())
          .isEqualTo(201);
    }
  }

  static Reply issue(String namespace, String scopes, int maxPriority) {
    Reply reply =
        admin.post(
            "/v1/admin/tokens",
            "{\"namespace\": \""
                + namespace
                + "\", \"scopes\": "
                + scopes
                + ", \"max_priority\": "
                + maxPriority
                + ", \"name\": \"test\"}");
    assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
    return reply;
  }

  static void assertRefused(Reply reply, int status, String error) {
    assertThat(reply.status()).as(reply.toString()).isEqualTo(status);
    assertThat(reply.field("error")).isEqualTo(error);
    assertThat(reply.field("message")).isNotBlank();
  }

  @Test
  void aCallWithoutATokenIsRefusedWith401() {
    Reply reply = admin.as(null).post("/v1/queues/shop/orders/jobs", "{\"payload\": 1}");
    assertRefused(reply, 401, "unauthorized");
    assertThat(reply.header("WWW-Authenticate")).isEqualTo("Bearer");
  }

  @Test
  void aWrongTokenIsRefusedWith401() {
    assertRefused(admin.as("not-a-real-token").get("/v1/queues"), 401, "unauthorized");
    assertRefused(admin.as("lu_0123456789abcdef.secret").get("/v1/queues"), 401, "unauthorized");
  }

  @Test
  void aTokenWithTheRightIdButAnotherSecretIsRefused() {
    String token = issue("shop", "[\"publish\"]", 0).field("token");
    String forged = token.substring(0, token.indexOf('.') + 1) + "A".repeat(43);
    assertRefused(
        admin.as(forged).post("/v1/queues/shop/orders/jobs", "{\"payload\": 1}"),
        401,
        "unauthorized");
  }

  @Test
  void anAuthorizationHeaderThatIsNotBearerIsRefused() {
    Reply reply =
        admin.as(null).withHeader("Authorization", "Basic dXNlcjpwYXNz").get("/v1/queues");
    assertRefused(reply, 401, "unauthorized");
  }

  @Test
  void aRevokedTokenIsRefusedOnEveryInstanceAtOnce() {
    Reply issued = issue("shop", "[\"publish\"]", 0);
    String token = issued.field("token");
    Api onFirst = admin.as(token);
    Api onSecond = new Api(secondServer.baseUrl(), token);
    assertThat(onSecond.post("/v1/queues/shop/orders/jobs", "{\"payload\": 1}").status())
        .isEqualTo(201);

    assertThat(admin.delete("/v1/admin/tokens/" + issued.field("id")).status()).isEqualTo(204);

    assertRefused(
        onSecond.post("/v1/queues/shop/orders/jobs", "{\"payload\": 1}"), 401, "unauthorized");
    assertRefused(
        onFirst.post("/v1/queues/shop/orders/jobs", "{\"payload\": 1}"), 401, "unauthorized");
  }

  @Test
  void aLongPollWhoseTokenIsRevokedDuringItsWaitHandsOutNoJob() {
    Reply issued = issue("shop", "[\"consume\"]", 0);
    Api consumer = admin.as(issued.field("token"));
    String q = "/v1/queues/shop/revoked-while-waiting";
    CompletableFuture<Reply> waiting =
        CompletableFuture.supplyAsync(() ->
            consumer.send("POST", q + "/leases", "{\"wait_ms\": 60000}", Duration.ofSeconds(90)));
    await().atMost(Duration.ofSeconds(10)).until(() -> server.running().waitingLeases() == 1);

    assertThat(admin.delete("/v1/admin/tokens/" + issued.field("id")).status()).isEqualTo(204);
    String id = admin.post(q + "/jobs", "{\"payload\": \"not for a revoked token\"}").field("id");

    assertRefused(waiting.join(), 401, "unauthorized");
    Reply job = admin.get(q + "/jobs/" + id);
    assertThat(job.field("state")).as("handed back to the line").isEqualTo("READY");
    assertThat(job.json().get("attempts").asInt()).as("the attempt not counted").isZero();
  }

  @Test
  void aTokensScopesComeBackInOneOrderWhenIssuedAndWhenListed() {
    Reply issued = issue("shop", "[\"manage\", \"consume\", \"publish\"]", 0);
    assertThat(issued.json().get("scopes").toString())
        .isEqualTo("[\"publish\",\"consume\",\"manage\"]");
    JsonNode listed = null;
    for (JsonNode token : admin.get("/v1/admin/tokens?namespace=shop").json().get("tokens")) {
      if (token.get("id").asText().equals(issued.field("id"))) {
        listed = token;
      }
    }
    assertThat(listed).isNotNull();
    assertThat(listed.get("scopes").toString()).isEqualTo("[\"publish\",\"consume\",\"manage\"]");
  }

  @Test
  void aTokenOfAnotherNamespaceIsRefusedWith403() {
    String blogToken = issue("blog", "[\"publish\", \"consume\", \"manage\"]", 10).field("token");
    Api blog = admin.as(blogToken);
    assertRefused(blog.post("/v1/queues/shop/orders/jobs", "{\"payload\": 1}"), 403, "forbidden");
    assertRefused(blog.post("/v1/queues/shop/orders/leases", "{}"), 403, "forbidden");
    assertRefused(blog.get("/v1/queues/shop/orders"), 403, "forbidden");
    assertThat(blog.post("/v1/queues/blog/posts/jobs", "{\"payload\": 1}").status()).isEqualTo(201);
  }

  @Test
  void aTokenWithoutTheScopeARouteNeedsIsRefusedWith403() {
    Api publisher = admin.as(issue("shop", "[\"publish\"]", 0).field("token"));
    Api consumer = admin.as(issue("shop", "[\"consume\"]", 0).field("token"));
    assertRefused(publisher.post("/v1/queues/shop/orders/leases", "{}"), 403, "forbidden");
    assertRefused(
        publisher.patch("/v1/queues/shop/orders", "{\"paused\": true}"), 403, "forbidden");
    assertRefused(
        consumer.post("/v1/queues/shop/orders/jobs", "{\"payload\": 1}"), 403, "forbidden");
    assertRefused(consumer.delete("/v1/queues/shop/orders/dead"), 403, "forbidden");
    assertThat(publisher.post("/v1/queues/shop/orders/jobs", "{\"payload\": 1}").status())
        .isEqualTo(201);
    assertThat(consumer.post("/v1/queues/shop/orders/leases", "{}").status()).isIn(200, 204);
  }

  @Test
  void aPublishAboveTheTokensMaximumPriorityIsRefusedWith403() {
    Api publisher = admin.as(issue("shop", "[\"publish\"]", 5).field("token"));
    Reply refused = publisher.post("/v1/queues/shop/vip/jobs", "{\"payload\": 1, \"priority\": 6}");
    assertRefused(refused, 403, "priority_not_allowed");
    assertThat(refused.field("field")).isEqualTo("priority");
    Reply inBulk =
        publisher.post(
            "/v1/queues/shop/vip/jobs", "[{\"payload\": 1}, {\"payload\": 2, \"priority\": 9}]");
    assertRefused(inBulk, 403, "priority_not_allowed");
    assertThat(inBulk.field("field")).isEqualTo("jobs[1].priority");
    assertThat(
            publisher
                .post("/v1/queues/shop/vip/jobs", "{\"payload\": 1, \"priority\": 5}")
                .status())
        .isEqualTo(201);
    assertThat(
            admin.post("/v1/queues/shop/vip/jobs", "{\"payload\": 1, \"priority\": 255}").status())
        .as("the admin may use any priority")
        .isEqualTo(201);
  }

  @Test
  void aNamespaceTokenMayNotCallAdminRoutes() {
    Api manager = admin.as(issue("shop", "[\"manage\"]", 0).field("token"));
    assertRefused(manager.get("/v1/admin/tokens"), 403, "forbidden");
    assertRefused(manager.post("/v1/admin/namespaces", "{\"name\": \"mine\"}"), 403, "forbidden");
  }

  @Test
  void aNamespaceTokenListsOnlyItsOwnQueues() {
    admin.post("/v1/queues/blog/listed/jobs", "{\"payload\": 1}");
    admin.post("/v1/queues/shop/listed/jobs", "{\"payload\": 1}");
    Api shop = admin.as(issue("shop", "[\"consume\"]", 0).field("token"));
    Reply queues = shop.get("/v1/queues");
    assertThat(queues.status()).isEqualTo(200);
    assertThat(queues.json().get("queues").findValuesAsText("namespace")).containsOnly("shop");
    assertThat(admin.get("/v1/queues").json().get("queues").findValuesAsText("queue"))
        .contains("shop/listed", "blog/listed");
  }

  @Test
  void tokensAreStoredOnlyAsHashesAndNeverListed() throws IOException {
    Reply issued = issue("shop", "[\"publish\"]", 0);
    String token = issued.field("token");
    String stored = server.redisProcess().command("HGET lu:rec:{tokens} " + issued.field("id"));
    assertThat(stored).contains("\"hash\"").doesNotContain(token);
    assertThat(stored).doesNotContain(token.substring(token.indexOf('.') + 1));
    String listed = admin.get("/v1/admin/tokens?namespace=shop").text();
    assertThat(listed).contains(issued.field("id")).doesNotContain(token).doesNotContain("hash");
  }

  @Test
  void deletingANamespaceRevokesItsTokens() {
    assertThat(admin.post("/v1/admin/namespaces", "{\"name\": \"gone\"}").status()).isEqualTo(201);
    String token = issue("gone", "[\"publish\"]", 0).field("token");
    assertThat(admin.delete("/v1/admin/namespaces/gone").status()).isEqualTo(204);
    assertRefused(
        admin.as(token).post("/v1/queues/gone/q/jobs", "{\"payload\": 1}"), 401, "unauthorized");
  }

  @Test
  void healthReadinessAndTheOpenApiDocumentNeedNoToken() {
    Api anonymous = admin.as(null);
    assertThat(anonymous.get("/health").status()).isEqualTo(200);
    assertThat(anonymous.get("/ready").status()).isEqualTo(200);
    assertThat(anonymous.get("/openapi.json").status()).isEqualTo(200);
    assertThat(anonymous.get("/metrics").status())
        .as("metrics are public by default")
        .isEqualTo(200);
  }

  @Test
  void metricsCanBeLimitedToTheAdmin() {
    try (LineupServer closed = server.startAnother(settings -> settings.metricsPublic(false))) {
      Api api = Api.adminOf(closed);
      assertRefused(api.as(null).get("/metrics"), 401, "unauthorized");
      String shopToken = issue("shop", "[\"manage\"]", 0).field("token");
      assertRefused(api.as(shopToken).get("/metrics"), 403, "forbidden");
      assertThat(api.get("/metrics").status()).isEqualTo(200);
    }
  }
}
