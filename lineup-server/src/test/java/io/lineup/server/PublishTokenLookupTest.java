package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.testing.BusyRedis;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Publishes by a namespace token, pipelined on one connection: the token is read from the token
 * store for each; answers and order are those of every other publish, and a token store that does
 * not answer in time is a 503, after which the same connection is served as before.
 */
class PublishTokenLookupTest {
  /** Short, so that a stalled token read is given up quickly. */
  static final Duration REDIS_TIMEOUT = Duration.ofMillis(500);

  @RegisterExtension
  static LineupServerExtension server =
      LineupServerExtension.onItsOwnRedis().withSettings(s -> s.redisTimeout(REDIS_TIMEOUT));

  static String shopToken;

  @BeforeAll
  static void issueAToken() {
    Api admin = server.admin();
    assertThat(admin.post("/v1/admin/namespaces", "{\"name\": \"shop\"}").status()).isEqualTo(201);
    Reply issued =
        admin.post(
            "/v1/admin/tokens",
            "{\"namespace\": \"shop\", \"scopes\": [\"publish\"], \"name\": \"pipelined\"}");
    assertThat(issued.status()).as(issued.toString()).isEqualTo(201);
    shopToken = issued.field("token");
  }

  @Test
  void pipelinedPublishesOfANamespaceTokenAreAnsweredAndQueuedInTheOrderSent() {
    try (RawHttp http = RawHttp.connect(server.port())) {
      for (String id : List.of("a", "b", "c", "d")) {
        http.post(
            "/v1/queues/shop/piped/jobs", shopToken, "{\"id\": \"" + id + "\", \"payload\": 1}");
      }

      List<String> answers = http.answers(4);

      assertThat(answers).hasSize(4);
      assertThat(answers).allSatisfy(answer -> assertThat(answer).startsWith("HTTP/1.1 201"));
      for (int i = 0; i < 4; i++) {
        assertThat(answers.get(i)).contains("\"id\":\"" + "abcd".charAt(i) + "\"");
      }
    }
    assertThat(server.admin().get("/v1/queues/shop/piped/jobs/d").field("position")).isEqualTo("3");
  }

  @Test
  void aTokenOfAnotherNamespaceIsRefusedAfterItsReadAndTheConnectionServesTheNextRequest() {
    try (RawHttp http = RawHttp.connect(server.port())) {
      http.post("/v1/queues/blog/posts/jobs", shopToken, "{\"payload\": 1}");
      http.post("/v1/queues/shop/after-refusal/jobs", shopToken, "{\"payload\": 1}");

      List<String> answers = http.answers(2);

      assertThat(answers.get(0)).startsWith("HTTP/1.1 403").contains("forbidden");
      assertThat(answers.get(1)).startsWith("HTTP/1.1 201");
    }
  }

  @Test
  void aTokenReadRedisDoesNotAnswerInTimeIs503AndTheConnectionIsServedOnceRedisIsBack()
      throws Exception {
    try (RawHttp http = RawHttp.connect(server.port())) {
      http.post("/v1/queues/shop/stalled/jobs", shopToken, "{\"id\": \"first\", \"payload\": 1}");
      assertThat(http.answers(1)).singleElement().asString().startsWith("HTTP/1.1 201");

      Thread busy = BusyRedis.keepBusy(server.redisProcess(), Duration.ofMillis(2000));
      try {
        http.post("/v1/queues/shop/stalled/jobs", shopToken, "{\"id\": \"late\", \"payload\": 1}");

        assertThat(http.answers(1))
            .singleElement()
            .asString()
            .startsWith("HTTP/1.1 503")
            .contains("redis_unavailable")
            .containsIgnoringCase("Retry-After");
      } finally {
        busy.join();
      }

      http.post("/v1/queues/shop/stalled/jobs", shopToken, "{\"id\": \"again\", \"payload\": 1}");
      assertThat(http.answers(1)).singleElement().asString().startsWith("HTTP/1.1 201");
    }
    assertThat(server.admin().get("/v1/queues/shop/stalled/jobs/again").field("position"))
        .isEqualTo("1");
  }
}
