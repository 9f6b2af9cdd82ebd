package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.testing.RedisServerExtension;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The job lists by state over HTTP ({@code GET …/jobs?state=}) with cursors and filters, and the
 * actions on jobs ({@code POST …/jobs/actions}, {@code …/jobs/{id}/run-now}, {@code
 * …/jobs/{id}/respawn}): what they answer, the confirmed count of a bulk action, who may do what,
 * and bad input.
 */
class JobListsApiTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  static final String NS = "lists";

  static String aQueue(String prefix) {
    return "/v1/queues/" + NS + "/" + RedisServerExtension.uniqueName(prefix).replace(':', '-');
  }

  static void assertError(Reply reply, int status, String code, String field) {
    assertThat(reply.status()).as(reply.toString()).isEqualTo(status);
    assertThat(reply.field("error")).as(reply.toString()).isEqualTo(code);
    assertThat(reply.field("field")).as(reply.toString()).isEqualTo(field);
  }

  /** Publishes jobs of max one attempt with these ids, leases and nacks each with its error. */
  static void someDeadJobs(Api api, String queue, List<String> ids, List<String> errors) {
    for (int i = 0; i < ids.size(); i++) {
      Reply published =
          api.post(
              queue + "/jobs",
              "{\"payload\": {\"n\": "
                  + i
                  + "}, \"id\": \""
                  + ids.get(i)
                  + "\", \"max_attempts\": 1}");
      assertThat(published.status()).as(published.toString()).isEqualTo(201);
      JsonNode leased = api.post(queue + "/leases", "{}").json().path("jobs").get(0);
      Reply nacked =
          api.post(
              queue + "/jobs/" + leased.path("id").asText() + "/nack",
              "{\"token\": \""
                  + leased.path("token").asText()
                  + "\", \"error\": \""
                  + errors.get(i)
                  + "\"}");
      assertThat(nacked.field("state")).as(nacked.toString()).isEqualTo("DEAD");
    }
  }

  static List<String> ids(JsonNode page) {
    List<String> ids = new ArrayList<>();
    page.path("jobs").forEach(job -> ids.add(job.path("id").asText()));
    return ids;
  }

  @Test
  void deadJobsArePagedByCursorAndFilteredByIdPrefixAndErrorText() {
    Api api = server.admin();
    String queue = aQueue("dead");
    someDeadJobs(
        api,
        queue,
        List.of("pay-1", "pay-2", "mail-1", "pay-3", "mail-2"),
        List.of("timed out", "card declined", "timed out", "timed out", "bounced"));

    JsonNode first = api.get(queue + "/jobs?state=dead&limit=2").json();
    assertThat(ids(first)).containsExactly("pay-1", "pay-2");
    assertThat(first.path("scanned").asLong()).isEqualTo(2);
    JsonNode job = first.path("jobs").get(0);
    assertThat(job.path("state").asText()).isEqualTo("DEAD");
    assertThat(job.path("last_error").asText()).isEqualTo("timed out");
    assertThat(job.path("payload").path("n").asInt()).isZero();
    assertThat(job.path("position").asLong()).isEqualTo(-1);
    assertThat(job.path("at").asLong()).isPositive();

    List<String> all = new ArrayList<>(ids(first));
    String cursor = first.path("next_cursor").asText();
    while (true) {
      JsonNode page = api.get(queue + "/jobs?state=dead&limit=2&cursor=" + cursor).json();
      all.addAll(ids(page));
      if (page.path("next_cursor").isNull()) {
        break;
      }
      cursor = page.path("next_cursor").asText();
    }
    assertThat(all).containsExactly("pay-1", "pay-2", "mail-1", "pay-3", "mail-2");
    assertThat(ids(api.get(queue + "/jobs?state=dead&order=desc&limit=1").json()))
        .containsExactly("mail-2");
    assertThat(ids(api.get(queue + "/jobs?state=dead&id_prefix=mail-").json()))
        .containsExactly("mail-1", "mail-2");
    assertThat(ids(api.get(queue + "/jobs?state=dead&error=timed%20out&id_prefix=pay").json()))
        .containsExactly("pay-1", "pay-3");
    assertThat(ids(api.get(queue + "/jobs?state=dead&from=1&to=2").json()))
        .as("a time range long before any death")
        .isEmpty();
  }

  @Test
  void runNowRespawnAndTheActionsRouteDoWhatTheySayAndNameWhatTheySkipped() {
    Api api = server.admin();
    String queue = aQueue("act");
    someDeadJobs(api, queue, List.of("dead-1"), List.of("boom"));
    api.post(queue + "/jobs", "{\"payload\": 1, \"id\": \"later\", \"delay_ms\": 3600000}");
    api.post(queue + "/jobs", "{\"payload\": 2, \"id\": \"now\"}");

    Reply ran = api.post(queue + "/jobs/later/run-now", "{}");
    assertThat(ran.status()).as(ran.toString()).isEqualTo(200);
    assertThat(ran.json().path("done").asLong()).isEqualTo(1);
    assertThat(api.get(queue + "/jobs/later").field("state")).isEqualTo("READY");

    Reply again = api.post(queue + "/jobs/later/run-now", "{}");
    assertThat(again.json().path("done").asLong()).isZero();
    assertThat(again.json().path("skipped").get(0).path("reason").asText())
        .isEqualTo("state_ready");
    assertError(api.post(queue + "/jobs/nobody/run-now", "{}"), 404, "not_found", null);

    Reply respawned = api.post(queue + "/jobs/dead-1/respawn", "{}");
    assertThat(respawned.json().path("done").asLong()).isEqualTo(1);
    assertThat(api.get(queue + "/jobs/dead-1").field("state")).isEqualTo("READY");

    Reply cancelled =
        api.post(queue + "/jobs/actions", "{\"action\": \"cancel\", \"ids\": [\"now\", \"x\"]}");
    assertThat(cancelled.status()).as(cancelled.toString()).isEqualTo(200);
    assertThat(cancelled.json().path("action").asText()).isEqualTo("cancel");
    assertThat(cancelled.json().path("matched").asLong()).isEqualTo(2);
    assertThat(cancelled.json().path("done").asLong()).isEqualTo(1);
    assertThat(cancelled.json().path("skipped").get(0).path("id").asText()).isEqualTo("x");
    assertThat(cancelled.json().path("skipped").get(0).path("reason").asText())
        .isEqualTo("not_found");

    JsonNode finished = api.get(queue + "/jobs?state=finished").json();
    assertThat(ids(finished)).containsExactly("now");
    Reply deleted =
        api.post(queue + "/jobs/actions", "{\"action\": \"delete\", \"ids\": [\"now\"]}");
    assertThat(deleted.json().path("done").asLong()).isEqualTo(1);
    assertThat(api.get(queue + "/jobs/now").status()).isEqualTo(404);
  }

  @Test
  void aBulkActionByFilterRunsOnlyWithTheCountTheCallerConfirmed() {
    Api api = server.admin();
    String queue = aQueue("bulk");
    someDeadJobs(
        api,
        queue,
        List.of("a-1", "a-2", "a-3", "b-1"),
        List.of("timeout", "timeout", "timeout", "timeout"));
    String body =
        "{\"action\": \"respawn\", \"filter\": {\"state\": \"dead\", \"id_prefix\": \"a-\"},"
            + " \"expected_count\": %d}";

    Reply refused = api.post(queue + "/jobs/actions", body.formatted(2));
    assertError(refused, 409, "count_mismatch", "expected_count");
    assertThat(refused.json().path("count").asLong()).isEqualTo(3);
    assertThat(refused.json().path("expected_count").asLong()).isEqualTo(2);
    assertThat(ids(api.get(queue + "/jobs?state=dead").json())).hasSize(4);

    Reply done = api.post(queue + "/jobs/actions", body.formatted(3));
    assertThat(done.status()).as(done.toString()).isEqualTo(200);
    assertThat(done.json().path("matched").asLong()).isEqualTo(3);
    assertThat(done.json().path("done").asLong()).isEqualTo(3);
    assertThat(ids(api.get(queue + "/jobs?state=dead").json())).containsExactly("b-1");
    assertThat(new HashSet<>(ids(api.get(queue + "/jobs?state=ready").json())))
        .containsExactlyInAnyOrder("a-1", "a-2", "a-3");
  }

  @Test
  void readSeesListsOnlyPublishCancelsAndDeletesByIdAndManageDoesEverything() {
    Api admin = server.admin();
    String queue = aQueue("scopes");
    admin.post(queue + "/jobs", "{\"payload\": 1, \"id\": \"j1\", \"delay_ms\": 3600000}");
    admin.post(queue + "/jobs", "{\"payload\": 1, \"id\": \"j2\", \"delay_ms\": 3600000}");
    Api reader = admin.as(DispatchFixtures.token(admin, NS, "[\"read\"]", 0));
    Api publisher = admin.as(DispatchFixtures.token(admin, NS, "[\"publish\"]", 0));
    Api manager = admin.as(DispatchFixtures.token(admin, NS, "[\"manage\"]", 0));
    String runNow = "{\"action\": \"run_now\", \"ids\": [\"j1\"]}";
    String byFilter =
        "{\"action\": \"cancel\", \"filter\": {\"state\": \"delayed\"}, \"expected_count\": 2}";

    assertThat(reader.get(queue + "/jobs?state=delayed").status()).isEqualTo(200);
    assertThat(publisher.get(queue + "/jobs?state=delayed").status()).isEqualTo(403);
    assertError(reader.post(queue + "/jobs/actions", runNow), 403, "forbidden", null);
    assertError(reader.post(queue + "/jobs/j1/run-now", "{}"), 403, "forbidden", null);
    assertError(publisher.post(queue + "/jobs/actions", runNow), 403, "forbidden", null);
    assertError(publisher.post(queue + "/jobs/actions", byFilter), 403, "forbidden", null);
    assertError(publisher.post(queue + "/jobs/j1/respawn", "{}"), 403, "forbidden", null);
    assertThat(admin.get(queue + "/jobs/j1").field("state")).isEqualTo("DELAYED");

    Reply cancelled =
        publisher.post(queue + "/jobs/actions", "{\"action\": \"cancel\", \"ids\": [\"j2\"]}");
    assertThat(cancelled.json().path("done").asLong()).as(cancelled.toString()).isEqualTo(1);
    Reply ran = manager.post(queue + "/jobs/actions", runNow);
    assertThat(ran.json().path("done").asLong()).as(ran.toString()).isEqualTo(1);
    assertThat(admin.get(queue + "/jobs/j1").field("state")).isEqualTo("READY");
  }

  @Test
  void badInputIsAnsweredWith400NamingTheField() {
    Api api = server.admin();
    String queue = aQueue("bad");
    api.post(queue + "/jobs", "{\"payload\": 1}");
    api.post(queue + "/jobs", "{\"payload\": 2}");
    String cursor =
        api.get(queue + "/jobs?state=ready&limit=1").json().path("next_cursor").asText();

    assertError(api.get(queue + "/jobs"), 400, "invalid_field", "state");
    assertError(api.get(queue + "/jobs?state=sleeping"), 400, "invalid_field", "state");
    assertError(api.get(queue + "/jobs?state=ready&limit=0"), 400, "invalid_field", "limit");
    assertError(api.get(queue + "/jobs?state=ready&limit=101"), 400, "invalid_field", "limit");
    assertError(api.get(queue + "/jobs?state=ready&order=up"), 400, "invalid_field", "order");
    assertError(api.get(queue + "/jobs?state=ready&from=yesterday"), 400, "invalid_field", "from");
    assertError(api.get(queue + "/jobs?state=dead&from=5&to=4"), 400, "invalid_field", "from");
    assertError(api.get(queue + "/jobs?state=ready&cursor=xyz"), 400, "invalid_field", "cursor");
    assertError(
        api.get(queue + "/jobs?state=dead&cursor=" + cursor), 400, "invalid_field", "cursor");
    assertError(
        api.get(queue + "/jobs?state=ready&id_prefix=" + "x".repeat(257)),
        400,
        "invalid_field",
        "id_prefix");

    String actions = queue + "/jobs/actions";
    assertError(api.post(actions, "{\"ids\": [\"a\"]}"), 400, "invalid_field", "action");
    assertError(
        api.post(actions, "{\"action\": \"explode\", \"ids\": [\"a\"]}"),
        400,
        "invalid_field",
        "action");
    assertError(api.post(actions, "{\"action\": \"cancel\"}"), 400, "invalid_field", "ids");
    assertError(
        api.post(actions, "{\"action\": \"cancel\", \"ids\": []}"), 400, "invalid_field", "ids");
    assertError(
        api.post(
            actions,
            "{\"action\": \"cancel\", \"ids\": [\"a\"], \"filter\": {\"state\": \"ready\"}}"),
        400,
        "invalid_field",
        "ids");
    assertError(
        api.post(actions, "{\"action\": \"cancel\", \"filter\": {\"state\": \"ready\"}}"),
        400,
        "invalid_field",
        "expected_count");
    assertError(
        api.post(
            actions,
            "{\"action\": \"cancel\", \"filter\": {\"state\": \"nope\"}, \"expected_count\": 1}"),
        400,
        "invalid_field",
        "filter.state");
    assertError(
        api.post(actions, "{\"action\": \"cancel\", \"ids\": [\"a\"], \"colour\": 1}"),
        400,
        "unknown_field",
        "colour");
    assertThat(api.get(queue + "/jobs?state=ready").json().path("jobs").size())
        .as("nothing was done")
        .isEqualTo(2);
  }
}
