package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.testing.RedisServerExtension;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code POST .../acks}: many leased jobs acknowledged in one request, each on its own. */
class AckBatchApiTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  static Api admin;

  @BeforeAll
  static void connect() {
    admin = server.admin();
    assertThat(admin.post("/v1/admin/namespaces", "{\"name\": \"billing\"}").status())
        .isEqualTo(201);
  }

  static String queue(String prefix) {
    return "/v1/queues/billing/" + RedisServerExtension.uniqueName(prefix);
  }

  static List<JsonNode> leased(String queue, int count) {
    for (int i = 0; i < count; i++) {
      assertThat(admin.post(queue + "/jobs", "{\"payload\": {\"invoice\": " + i + "}}").status())
          .isEqualTo(201);
    }
    Reply reply = admin.post(queue + "/leases", "{\"count\": " + count + ", \"wait_ms\": 5000}");
    assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
    List<JsonNode> jobs = new ArrayList<>();
    reply.json().get("jobs").forEach(jobs::add);
    assertThat(jobs).hasSize(count);
    return jobs;
  }

  static String ack(JsonNode job, String extra) {
    return "{\"id\": \""
        + job.get("id").asText()
        + "\", \"token\": \""
        + job.get("token").asText()
        + "\""
        + extra
        + "}";
  }

  @Test
  void everyJobOfTheRequestIsAcknowledgedWithItsOwnResult() {
    String q = queue("all");
    List<JsonNode> jobs = leased(q, 3);
    String body =
        "{\"acks\": ["
            + ack(jobs.get(0), ", \"result\": {\"sent\": 0}")
            + ", "
            + ack(jobs.get(1), "")
            + ", "
            + ack(jobs.get(2), ", \"result\": \"ok\"")
            + "]}";

    Reply reply = admin.post(q + "/acks", body);

    assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
    assertThat(reply.json().get("acked").asInt()).isEqualTo(3);
    for (int i = 0; i < 3; i++) {
      JsonNode outcome = reply.json().get("results").get(i);
      assertThat(outcome.get("id").asText()).isEqualTo(jobs.get(i).get("id").asText());
      assertThat(outcome.get("acked").asBoolean()).isTrue();
      assertThat(outcome.has("error")).isFalse();
    }
    Reply first = admin.get(q + "/jobs/" + jobs.get(0).get("id").asText());
    assertThat(first.field("state")).isEqualTo("DONE");
    assertThat(first.json().get("result").get("sent").asInt()).isZero();
    assertThat(admin.get(q).json().get("counts").get("leased").asLong()).isZero();
  }

  @Test
  void aStaleTokenFailsOnlyItsOwnAckWithTheSingleRoutesErrorBody() {
    String q = queue("stale");
    List<JsonNode> jobs = leased(q, 2);
    String wrong =
        "{\"id\": \"" + jobs.get(1).get("id").asText() + "\", \"token\": \"someone-else\"}";

    Reply reply =
        admin.post(q + "/acks", "{\"acks\": [" + ack(jobs.get(0), "") + ", " + wrong + "]}");

    assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
    assertThat(reply.json().get("acked").asInt()).isEqualTo(1);
    JsonNode failed = reply.json().get("results").get(1);
    assertThat(failed.get("acked").asBoolean()).isFalse();
    assertThat(failed.get("error").get("error").asText()).isEqualTo("lease_lost");
    assertThat(failed.get("error").get("reason").asText()).isEqualTo("wrong_token");
    assertThat(admin.get(q + "/jobs/" + jobs.get(1).get("id").asText()).field("state"))
        .isEqualTo("LEASED");
  }

  @Test
  void anUnknownJobIsReportedNotFoundBesideTheAckedOnes() {
    String q = queue("unknown");
    JsonNode job = leased(q, 1).get(0);

    Reply reply =
        admin.post(
            q + "/acks",
            "{\"acks\": [{\"id\": \"no-such-job\", \"token\": \"abc.1\"}, " + ack(job, "") + "]}");

    assertThat(reply.status()).isEqualTo(200);
    assertThat(reply.json().get("results").get(0).get("error").get("error").asText())
        .isEqualTo("not_found");
    assertThat(reply.json().get("results").get(1).get("acked").asBoolean()).isTrue();
  }

  @Test
  void badInputIsRefusedWith400NamingTheCulpritAndAcknowledgesNothing() {
    String q = queue("bad");
    JsonNode job = leased(q, 1).get(0);
    String good = ack(job, "");

    assertBad(q, "{}", "acks");
    assertBad(q, "{\"acks\": []}", "acks");
    assertBad(q, "{\"acks\": {\"id\": \"x\"}}", "acks");
    assertBad(q, "{\"acks\": [" + good + ", {\"id\": \"~1\"}]}", "acks[1].token");
    assertBad(
        q, "{\"acks\": [" + good + ", {\"id\": \"bad id!\", \"token\": \"t\"}]}", "acks[1].id");
    assertBad(q, "{\"acks\": [" + good + ", 5]}", "acks[1]");
    assertBad(q, "{\"acks\": [" + good + "], \"extra\": 1}", "extra");
    StringBuilder many = new StringBuilder("{\"acks\": [");
    for (int i = 0; i <= 1000; i++) {
      many.append(i == 0 ? "" : ", ").append(good);
    }
    assertBad(q, many.append("]}").toString(), "acks");

    assertThat(admin.get(q + "/jobs/" + job.get("id").asText()).field("state")).isEqualTo("LEASED");
  }

  private static void assertBad(String queue, String body, String field) {
    Reply reply = admin.post(queue + "/acks", body);
    assertThat(reply.status()).as(body).isEqualTo(400);
    assertThat(reply.field("field")).as(body).isEqualTo(field);
    assertThat(reply.field("message")).as(body).isNotBlank();
  }

  @Test
  void onlyATokenWithTheConsumeScopeMayAck() {
    String q = queue("scope");
    JsonNode job = leased(q, 1).get(0);
    Reply issued =
        admin.post(
            "/v1/admin/tokens",
            "{\"namespace\": \"billing\", \"scopes\": [\"publish\"], \"name\": \"publisher\"}");
    assertThat(issued.status()).as(issued.toString()).isEqualTo(201);
    Api publisher = admin.as(issued.field("token"));

    Reply refused = publisher.post(q + "/acks", "{\"acks\": [" + ack(job, "") + "]}");

    assertThat(refused.status()).isEqualTo(403);
    assertThat(admin.as("not-a-token").post(q + "/acks", "{\"acks\": []}").status()).isEqualTo(401);
    assertThat(admin.get(q + "/jobs/" + job.get("id").asText()).field("state")).isEqualTo("LEASED");
  }
}
