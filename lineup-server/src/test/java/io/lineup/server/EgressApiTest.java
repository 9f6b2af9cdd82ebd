package io.lineup.server;

import static io.lineup.server.DispatchFixtures.awaitEnd;
import static io.lineup.server.DispatchFixtures.name;
import static io.lineup.server.DispatchFixtures.submit;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The egress policy over the API: a server with the default policy (no LINEUP_EGRESS_ALLOW) refuses
 * non-public targets when they are registered, and fails a task whose host only resolves to one
 * when it is sent.
 */
class EgressApiTest {
  @RegisterExtension
  static LineupServerExtension server =
      LineupServerExtension.onItsOwnRedis().withSettings(s -> s.egressAllow(null));

  static final String NS = "egress";
  static Api api;
  static TestTarget target;

  @BeforeAll
  static void start() {
    api = server.admin();
    target = TestTarget.start();
  }

  @AfterAll
  static void stop() {
    target.close();
  }

  private static Reply putEndpoint(Api by, String baseUrl) {
    return by.put(
        "/v1/endpoints/" + NS + "/" + name("refused"), "{\"base_url\": \"" + baseUrl + "\"}");
  }

  @ParameterizedTest
  @CsvSource({
    "http://127.0.0.1:8080/api, 127.0.0.1 is loopback",
    "http://2130706433/, 127.0.0.1 is loopback",
    "http://017700000001/, 127.0.0.1 is loopback",
    "http://[::ffff:127.0.0.1]/, 127.0.0.1 is loopback",
    "http://localhost:8080, localhost: ",
    "http://169.254.169.254/latest/meta-data, 169.254.169.254 is link-local",
    "http://10.1.2.3/, 10.1.2.3 is private",
    "https://192.168.0.10/, 192.168.0.10 is private",
    "http://172.20.0.1/, 172.20.0.1 is private",
    "http://100.100.100.200/, 100.100.100.200 is shared (carrier-grade NAT)",
    "http://0.0.0.0:8080/, 0.0.0.0 is unspecified",
    "http://[fd00::1]/, is private",
    "http://[fe80::1]/, is link-local"
  })
  void aBaseUrlThatCanOnlyReachANonPublicAddressIsRefusedAtRegistration(
      String baseUrl, String reason) {
    Reply reply = putEndpoint(api, baseUrl);
    assertThat(reply.status()).as(reply.toString()).isEqualTo(400);
    assertThat(reply.field("error")).isEqualTo("egress_refused");
    assertThat(reply.field("field")).isEqualTo("base_url");
    assertThat(reply.field("reason")).contains(reason);
    assertThat(reply.field("message")).contains("LINEUP_EGRESS_ALLOW");
  }

  @ParameterizedTest
  @CsvSource({"http://upstream.example:99999/", "http://upstream.example:0/"})
  void aBaseUrlWithAPortOutOfRangeIsRefusedAtRegistration(String baseUrl) {
    Reply reply = putEndpoint(api, baseUrl);
    assertThat(reply.status()).as(reply.toString()).isEqualTo(400);
    assertThat(reply.field("error")).isEqualTo("invalid_field");
    assertThat(reply.field("field")).isEqualTo("base_url");
    assertThat(reply.field("message")).contains("1 to 65535");
  }

  @Test
  void aCallbackPrefixOnANonPublicAddressIsRefusedNamingItsIndex() {
    Reply reply =
        api.put(
            "/v1/callbacks/" + NS,
            "{\"allowed_prefixes\": [\"https://hooks.example.com/\","
                + " \"http://169.254.169.254/hooks/\"]}");
    assertThat(reply.status()).as(reply.toString()).isEqualTo(400);
    assertThat(reply.field("error")).isEqualTo("egress_refused");
    assertThat(reply.field("field")).isEqualTo("allowed_prefixes[1]");
    assertThat(reply.field("reason")).isEqualTo("169.254.169.254 is link-local");
    Reply port =
        api.put("/v1/callbacks/" + NS, "{\"allowed_prefixes\": [\"http://h.example:70000/\"]}");
    assertThat(port.status()).as(port.toString()).isEqualTo(400);
    assertThat(port.field("field")).isEqualTo("allowed_prefixes[0]");
  }

  @Test
  void theRedisPortIsRefusedEvenWhereLoopbackIsAllowed() {
    LineupServer allowing = server.startAnother(s -> s.egressAllow("127.0.0.0/8,::1"));
    try (allowing) {
      int redisPort = server.redisProcess().port();
      Reply reply = putEndpoint(Api.adminOf(allowing), "http://127.0.0.1:" + redisPort);
      assertThat(reply.status()).as(reply.toString()).isEqualTo(400);
      assertThat(reply.field("error")).isEqualTo("egress_refused");
      assertThat(reply.field("reason")).contains("this server's Redis");
      Reply other = putEndpoint(Api.adminOf(allowing), target.url());
      assertThat(other.status()).as(other.toString()).isIn(200, 201);
    }
  }

  @Test
  void aTaskWhoseHostResolvesToLoopbackWhenSentFailsWithTheReasonAndNothingIsSent() {
    // A server that allows loopback registers the endpoint, as one would whose DNS said public
    // then; it stops, and the class's server (default policy) is left to send the task.
    TestTarget own = TestTarget.start();
    String endpoint = "/v1/endpoints/" + NS + "/" + name("rebind");
    try (own) {
      LineupServer allowing = server.startAnother(s -> s.egressAllow("127.0.0.0/8,::1"));
      try (allowing) {
        String base = own.url().replace("127.0.0.1", "localhost");
        Reply put = Api.adminOf(allowing).put(endpoint, "{\"base_url\": \"" + base + "\"}");
        assertThat(put.status()).as(put.toString()).isIn(200, 201);
      }
      String id = submit(api, endpoint, "{\"path\": \"/x\"}");
      JsonNode task = awaitEnd(api, endpoint, id);
      assertThat(task.path("status").asText()).as(task.toString()).isEqualTo("failed");
      assertThat(task.path("error").asText())
          .startsWith("egress_refused: ")
          .endsWith(" is loopback");
      assertThat(task.path("attempts")).hasSize(1);
      assertThat(task.path("attempts").get(0).path("error").asText())
          .isEqualTo(task.path("error").asText());
      assertThat(own.seen()).isEmpty();
    }
  }
}
