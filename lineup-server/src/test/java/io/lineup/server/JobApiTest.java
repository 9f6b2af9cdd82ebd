package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.testing.RedisServerExtension;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The job, lease, queue and dead-letter routes doing their work. */
class JobApiTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  static Api api;

  @BeforeAll
  static void connect() {
    api = server.admin();
  }

  static String queue(String prefix) {
    return "/v1/queues/jobs/" + RedisServerExtension.uniqueName(prefix);
  }

  static JsonNode leaseOne(String queue) {
    Reply reply = api.post(queue + "/leases", "{\"wait_ms\": 5000}");
    assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
    return reply.json().get("jobs").get(0);
  }

  @Test
  void aBulkPublishAnswersEachJobInOrderWithItsPosition() {
    String q = queue("bulk");
    Reply reply =
        api.post(
            q + "/jobs",
            "[{\"payload\": 1}, {\"payload\": 2, \"priority\": 10}, {\"payload\": 3, \"delay_ms\": 60000}]");
    assertThat(reply.status()).isEqualTo(201);
    JsonNode results = reply.json();
    assertThat(results).hasSize(3);
    assertThat(results.get(0).get("state").asText()).isEqualTo("READY");
    assertThat(results.get(2).get("state").asText()).isEqualTo("DELAYED");
    assertThat(results.get(2).get("position").asLong()).isEqualTo(-1);
    JsonNode first = leaseOne(q);
    assertThat(first.get("payload").asInt()).as("higher priority first").isEqualTo(2);
    assertThat(first.get("priority").asInt()).isEqualTo(10);
  }

  @Test
  void publishingTheSameIdTwiceAnswersTheFirstJob() {
    String q = queue("dedup");
    Reply first = api.post(q + "/jobs", "{\"payload\": 1, \"id\": \"order-1\"}");
    Reply again = api.post(q + "/jobs", "{\"payload\": 2, \"id\": \"order-1\"}");
    assertThat(first.json().get("created").asBoolean()).isTrue();
    assertThat(again.status()).isEqualTo(201);
    assertThat(again.json().get("created").asBoolean()).isFalse();
    assertThat(again.field("id")).isEqualTo("order-1");
    Reply unique1 =
        api.post(
            q + "/jobs", "{\"payload\": 1, \"unique_key\": \"u\", \"unique_window_ms\": 60000}");
    Reply unique2 =
        api.post(
            q + "/jobs", "{\"payload\": 2, \"unique_key\": \"u\", \"unique_window_ms\": 60000}");
    assertThat(unique2.field("id")).isEqualTo(unique1.field("id"));
    assertThat(unique2.json().get("created").asBoolean()).isFalse();
  }

  @Test
  void bytesThatAreNotJsonTravelAsBase64() {
    String q = queue("bytes");
    byte[] raw = {(byte) 0xff, 0, 1, 2};
    String encoded = Base64.getEncoder().encodeToString(raw);
    Reply published = api.post(q + "/jobs", "{\"payload_base64\": \"" + encoded + "\"}");
    JsonNode job = leaseOne(q);
    assertThat(job.has("payload")).isFalse();
    assertThat(job.get("payload_base64").asText()).isEqualTo(encoded);
    Reply read = api.get(q + "/jobs/" + published.field("id"));
    assertThat(read.field("payload_base64")).isEqualTo(encoded);
    String textPayload = queue("text");
    api.post(textPayload + "/jobs", "{\"payload\": \"plain words\"}");
    assertThat(leaseOne(textPayload).get("payload").asText()).isEqualTo("plain words");
  }

  @Test
  void bytesThatAreAlsoJsonTextComeBackExactWhenAskedForAsBase64() {
    String q = queue("exact");
    String spaced = Base64.getEncoder().encodeToString(" 5".getBytes(StandardCharsets.UTF_8));
    String id = api.post(q + "/jobs", "{\"payload_base64\": \"" + spaced + "\"}").field("id");

    assertThat(api.get(q + "/jobs/" + id).json().get("payload").asInt())
        .as("by default, JSON text comes back as its value")
        .isEqualTo(5);
    Reply exact = api.get(q + "/jobs/" + id + "?payload_encoding=base64");
    assertThat(exact.json().has("payload")).isFalse();
    assertThat(exact.field("payload_base64")).isEqualTo(spaced);

    Reply leased = api.post(q + "/leases?payload_encoding=base64", "{\"wait_ms\": 5000}");
    JsonNode job = leased.json().get("jobs").get(0);
    assertThat(job.get("payload_base64").asText()).isEqualTo(spaced);
    Reply acked =
        api.post(
            q + "/jobs/" + id + "/ack",
            "{\"token\": \"" + job.get("token").asText() + "\", \"result\": {\"ok\": true}}");
    assertThat(acked.status()).isEqualTo(204);
    Reply done = api.get(q + "/jobs/" + id + "?payload_encoding=base64");
    assertThat(done.field("result_base64"))
        .isEqualTo(
            Base64.getEncoder().encodeToString("{\"ok\":true}".getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void aNackedJobIsRetriedLaterAndGoesToDeadLettersAfterItsLastAttempt() {
    String q = queue("nack");
    String id = api.post(q + "/jobs", "{\"payload\": 1, \"max_attempts\": 2}").field("id");
    JsonNode first = leaseOne(q);
    Reply retried =
        api.post(
            q + "/jobs/" + id + "/nack",
            "{\"token\": \""
                + first.get("token").asText()
                + "\", \"error\": \"boom\", \"retry_delay_ms\": 0}");
    assertThat(retried.status()).isEqualTo(200);
    assertThat(retried.field("state")).isIn("READY", "DELAYED");
    JsonNode second = leaseOne(q);
    assertThat(second.get("attempt").asInt()).isEqualTo(2);
    Reply dead =
        api.post(
            q + "/jobs/" + id + "/nack",
            "{\"token\": \"" + second.get("token").asText() + "\", \"error\": \"boom again\"}");
    assertThat(dead.field("state")).isEqualTo("DEAD");

    Reply page = api.get(q + "/dead?count=10");
    assertThat(page.status()).isEqualTo(200);
    assertThat(page.json().get("total").asLong()).isEqualTo(1);
    assertThat(page.json().get("jobs").get(0).get("last_error").asText()).isEqualTo("boom again");

    Reply respawned = api.post(q + "/dead/respawn", "{\"ids\": [\"" + id + "\"]}");
    assertThat(respawned.json().get("respawned").asInt()).isEqualTo(1);
    JsonNode again = leaseOne(q);
    assertThat(again.get("id").asText()).isEqualTo(id);
    assertThat(again.get("attempt").asInt()).isEqualTo(1);
    api.post(
        q + "/jobs/" + id + "/nack",
        "{\"token\": \"" + again.get("token").asText() + "\", \"retry_delay_ms\": 0}");
    JsonNode last = leaseOne(q);
    api.post(q + "/jobs/" + id + "/nack", "{\"token\": \"" + last.get("token").asText() + "\"}");
    Reply purged = api.delete(q + "/dead");
    assertThat(purged.json().get("purged").asInt()).isEqualTo(1);
    assertThat(api.get(q + "/dead").json().get("total").asLong()).isZero();
  }

  @Test
  void aStaleLeaseTokenIsRefusedWith409AndAnExtendMovesTheDeadline() {
    String q = queue("lease");
    String id = api.post(q + "/jobs", "{\"payload\": 1}").field("id");
    JsonNode job = leaseOne(q);
    String token = job.get("token").asText();
    Reply extended =
        api.post(
            q + "/jobs/" + id + "/extend", "{\"token\": \"" + token + "\", \"ttr_ms\": 120000}");
    assertThat(extended.status()).isEqualTo(200);
    assertThat(extended.json().get("lease_deadline_at").asLong())
        .isGreaterThan(job.get("lease_deadline_at").asLong());

    Reply wrong = api.post(q + "/jobs/" + id + "/ack", "{\"token\": \"someone-else\"}");
    assertThat(wrong.status()).isEqualTo(409);
    assertThat(wrong.field("error")).isEqualTo("lease_lost");
    assertThat(wrong.field("reason")).isNotBlank();

    assertThat(api.post(q + "/jobs/" + id + "/ack", "{\"token\": \"" + token + "\"}").status())
        .isEqualTo(204);
    Reply unknown = api.post(q + "/jobs/nope/ack", "{\"token\": \"" + token + "\"}");
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.field("error")).isEqualTo("not_found");
  }

  @Test
  void aCancelledJobCannotBeCancelledAgainAndAnUnknownOneIs404() {
    String q = queue("cancel");
    String id = api.post(q + "/jobs", "{\"payload\": 1, \"delay_ms\": 60000}").field("id");
    Reply cancelled = api.delete(q + "/jobs/" + id);
    assertThat(cancelled.status()).isEqualTo(200);
    assertThat(cancelled.field("previous_state")).isEqualTo("DELAYED");
    Reply again = api.delete(q + "/jobs/" + id);
    assertThat(again.status()).isEqualTo(409);
    assertThat(again.field("error")).isEqualTo("job_finished");
    assertThat(api.delete(q + "/jobs/never").status()).isEqualTo(404);
    assertThat(api.get(q + "/jobs/never").status()).isEqualTo(404);
  }

  @Test
  void aPausedQueueLeasesNothingAndGivesNoEtaUntilResumed() {
    String q = queue("pause");
    String id = api.post(q + "/jobs", "{\"payload\": 1}").field("id");
    // Nothing served yet: the ETA comes from the expected service time.
    api.patch(q, "{\"expected_service_ms\": 100, \"concurrency_limit\": 1}");
    assertThat(api.get(q + "/jobs/" + id).json().get("eta_ms").isNumber()).isTrue();
    Reply paused = api.patch(q, "{\"paused\": true}");
    assertThat(paused.status()).isEqualTo(200);
    assertThat(paused.json().get("settings").get("paused").asBoolean()).isTrue();
    assertThat(api.get(q + "/jobs/" + id).json().get("eta_ms").isNull()).isTrue();
    assertThat(api.post(q + "/leases", "{}").status()).isEqualTo(204);
    api.patch(q, "{\"paused\": false}");
    assertThat(api.get(q + "/jobs/" + id).json().get("eta_ms").isNumber()).isTrue();
    assertThat(api.post(q + "/leases", "{}").status()).isEqualTo(200);
  }

  @Test
  void aLimitThatRefusesALeaseAnswers429WithRetryAfter() {
    String q = queue("limited");
    api.post(q + "/jobs", "[{\"payload\": 1}, {\"payload\": 2}]");
    Reply configured = api.patch(q, "{\"concurrency_limit\": 1, \"ttr_ms\": 60000}");
    assertThat(configured.json().get("settings").get("concurrency_limit").asInt()).isEqualTo(1);
    assertThat(api.post(q + "/leases", "{}").status()).isEqualTo(200);
    Reply refused = api.post(q + "/leases", "{}");
    assertThat(refused.status()).isEqualTo(429);
    assertThat(refused.field("error")).isEqualTo("concurrency_limited");
    assertThat(Long.parseLong(refused.header("Retry-After"))).isPositive();
    assertThat(refused.json().get("retry_after_ms").asLong()).isPositive();

    String rated = queue("rated");
    api.post(rated + "/jobs", "[{\"payload\": 1}, {\"payload\": 2}]");
    api.patch(rated, "{\"rate_limit\": 1}");
    assertThat(api.post(rated + "/leases", "{}").status()).isEqualTo(200);
    Reply rateRefused = api.post(rated + "/leases", "{}");
    assertThat(rateRefused.status()).isEqualTo(429);
    assertThat(rateRefused.field("error")).isEqualTo("rate_limited");
    assertThat(rateRefused.header("Retry-After")).isEqualTo("1");
  }

  @Test
  void aLeaseOnACommaListTakesFromTheEarlierQueueFirst() {
    String urgent = RedisServerExtension.uniqueName("urgent");
    String normal = RedisServerExtension.uniqueName("normal");
    api.post("/v1/queues/jobs/" + normal + "/jobs", "{\"payload\": \"normal\"}");
    api.post("/v1/queues/jobs/" + urgent + "/jobs", "{\"payload\": \"urgent\"}");
    String both = "/v1/queues/jobs/" + urgent + "," + normal;
    JsonNode first = leaseOne(both);
    assertThat(first.get("payload").asText()).isEqualTo("urgent");
    assertThat(first.get("queue").asText()).isEqualTo("jobs/" + urgent);
    assertThat(leaseOne(both).get("payload").asText()).isEqualTo("normal");
  }

  @Test
  void aQueueShowsItsCountsAndSettingsAndAnUnknownQueueIs404() {
    String q = queue("stats");
    api.post(q + "/jobs", "[{\"payload\": 1}, {\"payload\": 2, \"delay_ms\": 60000}]");
    Reply stats = api.get(q);
    assertThat(stats.status()).isEqualTo(200);
    assertThat(stats.json().get("counts").get("ready").asLong()).isEqualTo(1);
    assertThat(stats.json().get("counts").get("delayed").asLong()).isEqualTo(1);
    assertThat(stats.json().get("settings").get("max_attempts").asInt()).isEqualTo(3);
    assertThat(stats.json().get("counters").get("published").asLong()).isEqualTo(2);
    Reply backoff = api.patch(q, "{\"backoff\": {\"kind\": \"fixed\", \"initial_ms\": 2000}}");
    assertThat(backoff.json().get("settings").get("backoff").get("kind").asText())
        .isEqualTo("fixed");
    assertThat(backoff.json().get("settings").get("backoff").get("initial_ms").asLong())
        .isEqualTo(2000);
    assertThat(api.get(queue("unknown")).status()).isEqualTo(404);
    assertThat(api.get(queue("unknown") + "/dead").status()).isEqualTo(404);
  }

  @Test
  void aLeaseWithNothingReadyAnswers204AfterItsWait() {
    Reply reply = api.post(queue("empty") + "/leases", "{\"wait_ms\": 200}");
    assertThat(reply.status()).isEqualTo(204);
    assertThat(reply.text()).isEmpty();
  }

  @Test
  void theArchiveListingIsNotFoundWhileArchivingIsOff() {
    Reply reply = api.get("/v1/archive/jobs");
    assertThat(reply.status()).isEqualTo(404);
    assertThat(reply.field("message")).contains("LINEUP_ARCHIVE_JDBC_URL");
  }
}
