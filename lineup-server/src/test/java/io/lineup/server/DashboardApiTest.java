package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.server.api.DashboardAssets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The routes the web dashboard reads beyond the rest of the API: who a token is, the overview, a
 * queue's history, the next jobs in line, a job's timeline, the rooms of a namespace, the read
 * scope, and the dashboard's files.
 */
class DashboardApiTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  static Api admin;

  @BeforeAll
  static void connect() {
    admin = server.admin();
  }

  static String aQueueIn(String ns, int jobs) {
    String path = "/v1/queues/" + ns + "/" + RoomFixtures.name("q");
    for (int i = 0; i < jobs; i++) {
      Reply reply = admin.post(path + "/jobs", "{\"payload\": {\"n\": " + i + "}}");
      assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
    }
    return path;
  }

  static void assertRefused(Reply reply, int status, String code, String field) {
    assertThat(reply.status()).as(reply.toString()).isEqualTo(status);
    assertThat(reply.field("error")).isEqualTo(code);
    if (field != null) {
      assertThat(reply.field("field")).isEqualTo(field);
    }
  }

  @Test
  void aTokenLearnsWhatItMayDo() {
    JsonNode adminSelf = admin.get("/v1/me").json();
    assertThat(adminSelf.get("admin").asBoolean()).isTrue();
    assertThat(adminSelf.get("may").get("manage").asBoolean()).isTrue();
    assertThat(adminSelf.get("may").get("administer").asBoolean()).isTrue();

    String reader = RoomFixtures.token(admin, "me-ns", "[\"read\"]", 0);
    JsonNode readerSelf = admin.as(reader).get("/v1/me").json();
    assertThat(readerSelf.get("admin").asBoolean()).isFalse();
    assertThat(readerSelf.get("namespace").asText()).isEqualTo("me-ns");
    assertThat(readerSelf.get("scopes").toString()).isEqualTo("[\"read\"]");
    assertThat(readerSelf.get("may").get("read").asBoolean()).isTrue();
    assertThat(readerSelf.get("may").get("manage").asBoolean()).isFalse();
    assertThat(readerSelf.get("may").get("cancel").asBoolean()).isFalse();
    assertThat(readerSelf.get("may").get("publish").asBoolean()).isFalse();

    String publisher = RoomFixtures.token(admin, "me-ns", "[\"publish\"]", 5);
    JsonNode publisherSelf = admin.as(publisher).get("/v1/me").json();
    assertThat(publisherSelf.get("max_priority").asInt()).isEqualTo(5);
    assertThat(publisherSelf.get("may").get("cancel").asBoolean()).isTrue();

    assertRefused(admin.as(null).get("/v1/me"), 401, "unauthorized", null);
    assertRefused(admin.as("lu_0123456789abcdef.nope").get("/v1/me"), 401, "unauthorized", null);
  }

  @Test
  void theOverviewShowsTheQueuesEndpointsAndRoomsOfTheTokensNamespaceOnly() {
    String mine = aQueueIn("ov-mine", 3);
    String theirs = aQueueIn("ov-theirs", 1);
    String room = RoomFixtures.room(admin, "ov-mine", RoomFixtures.name("r"), "\"max_active\": 2");
    String reader = RoomFixtures.token(admin, "ov-mine", "[\"read\"]", 0);
    String consumer = RoomFixtures.token(admin, "ov-mine", "[\"consume\"]", 0);

    JsonNode seen = admin.as(reader).get("/v1/overview").json();

    List<String> queues = new ArrayList<>();
    seen.get("queues").forEach(q -> queues.add("/v1/queues/" + q.get("queue").asText()));
    assertThat(queues).contains(mine).doesNotContain(theirs);
    JsonNode entry = find(seen.get("queues"), "/v1/queues/", mine);
    assertThat(entry.get("counts").get("ready").asLong()).isEqualTo(3);
    assertThat(entry.get("kind").asText()).isEqualTo("queue");
    assertThat(entry.get("paused").asBoolean()).isFalse();
    assertThat(seen.get("rooms").toString()).contains(room.substring(room.lastIndexOf('/') + 1));
    assertThat(seen.get("truncated").asBoolean()).isFalse();

    JsonNode withoutRead = admin.as(consumer).get("/v1/overview").json();
    assertThat(withoutRead.get("rooms")).isEmpty();
    assertThat(withoutRead.get("endpoints")).isEmpty();

    JsonNode everything = admin.get("/v1/overview").json();
    assertThat(everything.get("queues").toString()).contains(theirs.substring(11));

    // Leased through this instance: its lateness p99 is known here.
    assertThat(entry.get("lateness_p99_ms").isNull()).isTrue();
    admin.post(mine + "/leases", "{\"count\": 1}");
    JsonNode afterLease = find(admin.get("/v1/overview").json().get("queues"), "/v1/queues/", mine);
    assertThat(afterLease.get("counts").get("leased").asLong()).isEqualTo(1);
    assertThat(afterLease.get("lateness_p99_ms").asLong()).isBetween(1L, 60_000L);
  }

  static JsonNode find(JsonNode list, String prefix, String path) {
    for (JsonNode node : list) {
      if ((prefix + node.get("queue").asText()).equals(path)) {
        return node;
      }
    }
    throw new AssertionError(path + " is not in " + list);
  }

  @Test
  void everyInstanceShowsTheSameHistoryWithRatesBetweenReadings() {
    String queue = aQueueIn("hist-ns", 4);
    Api other = Api.adminOf(server.startAnother());

    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> admin.get(queue + "/history").json().get("samples").size() >= 2);

    JsonNode history = admin.get(queue + "/history").json();
    assertThat(history.get("interval_ms").asLong()).isEqualTo(1_000);
    assertThat(history.get("window_ms").asLong()).isEqualTo(900_000);
    assertThat(history.get("range").asText()).isEqualTo("15m");
    JsonNode first = history.get("samples").get(0);
    assertThat(first.get("ready").asLong()).isEqualTo(4);
    assertThat(first.get("published").asLong()).isEqualTo(4);
    assertThat(history.get("eta_check").has("checked")).isTrue();
    JsonNode fromOther = other.get(queue + "/history").json().get("samples");
    assertThat(fromOther.get(0)).isEqualTo(first);
    List<Long> times = new ArrayList<>();
    history.get("samples").forEach(s -> times.add(s.get("at").asLong()));
    assertThat(times).isSorted().doesNotHaveDuplicates();

    JsonNode overview = admin.get("/v1/overview").json();
    assertThat(
            find(overview.get("queues"), "/v1/queues/", queue).get("rates").has("published_per_s"))
        .isTrue();
    JsonNode hour = admin.get(queue + "/history?range=1h").json();
    assertThat(hour.get("interval_ms").asLong()).isEqualTo(60_000);
    assertThat(hour.get("window_ms").asLong()).isEqualTo(3_600_000);
    assertThat(hour.get("samples").size()).isBetween(1, 2);
    assertThat(hour.get("samples").get(0).get("ready").asLong()).isEqualTo(4);
    JsonNode day = admin.get(queue + "/history?range=24h").json();
    assertThat(day.get("window_ms").asLong()).isEqualTo(86_400_000);
    assertRefused(admin.get(queue + "/history?range=2h"), 400, "invalid_field", "range");
    assertRefused(admin.get("/v1/queues/hist-ns/never-used/history"), 404, "not_found", null);
    assertRefused(admin.get("/v1/queues/hist-ns/bad!name/history"), 400, "invalid_name", null);
  }

  @Test
  void theNextJobsInLineComeWithTheirPositionsAndEtas() {
    String queue = aQueueIn("line-ns", 5);
    admin.post(queue + "/jobs", "{\"payload\": 9, \"priority\": 7, \"id\": \"vip\"}");

    JsonNode line = admin.get(queue + "/line?count=3").json();

    assertThat(line.get("ready").asLong()).isEqualTo(6);
    JsonNode jobs = line.get("jobs");
    assertThat(jobs).hasSize(3);
    assertThat(jobs.get(0).get("id").asText()).isEqualTo("vip");
    for (int i = 0; i < 3; i++) {
      assertThat(jobs.get(i).get("position").asLong()).isEqualTo(i);
      assertThat(jobs.get(i).has("eta_ms")).isTrue();
    }
    JsonNode page = admin.get(queue + "/line?offset=4&count=10").json().get("jobs");
    assertThat(page).hasSize(2);
    assertThat(page.get(0).get("position").asLong()).isEqualTo(4);

    assertRefused(admin.get(queue + "/line?count=0"), 400, "invalid_field", "count");
    assertRefused(admin.get(queue + "/line?count=101"), 400, "invalid_field", "count");
    assertRefused(admin.get(queue + "/line?offset=-1"), 400, "invalid_field", "offset");
    assertRefused(admin.get(queue + "/line?count=ten"), 400, "invalid_field", "count");
    assertRefused(admin.get("/v1/queues/line-ns/none-here/line"), 404, "not_found", null);
  }

  @Test
  void aJobsTimelineListsItsStepsFromTheEventStream() {
    String queue = aQueueIn("tl-ns", 0);
    admin.patch(queue, "{\"max_attempts\": 1}");
    admin.post(queue + "/jobs", "{\"payload\": 1, \"id\": \"j1\"}");
    JsonNode leased = admin.post(queue + "/leases", "{\"count\": 1}").json().get("jobs").get(0);
    admin.post(queue + "/jobs/j1/nack", "{\"token\": \"" + leased.get("token").asText() + "\"}");
    admin.post(queue + "/dead/respawn", "{\"ids\": [\"j1\"]}");

    JsonNode events = admin.get(queue + "/jobs/j1/events").json().get("events");

    List<String> kinds = new ArrayList<>();
    events.forEach(e -> kinds.add(e.get("kind").asText()));
    assertThat(kinds).containsExactly("published", "leased", "dead", "respawned");
    assertRefused(admin.get(queue + "/jobs/nobody/events"), 404, "not_found", null);
    assertRefused(admin.get(queue + "/jobs/bad%20id/events"), 400, "invalid_name", null);
  }

  @Test
  void roomsAreListedForTokensThatMayManageOrRead() {
    String name = RoomFixtures.name("listed");
    RoomFixtures.room(admin, "rooms-ns", name, "\"max_active\": 3");
    String reader = RoomFixtures.token(admin, "rooms-ns", "[\"read\"]", 0);
    String publisher = RoomFixtures.token(admin, "rooms-ns", "[\"publish\"]", 0);

    JsonNode rooms = admin.as(reader).get("/v1/rooms/rooms-ns").json().get("rooms");

    assertThat(rooms).hasSize(1);
    assertThat(rooms.get(0).get("room").asText()).isEqualTo(name);
    assertThat(rooms.get(0).get("max_active").asInt()).isEqualTo(3);
    assertRefused(admin.as(publisher).get("/v1/rooms/rooms-ns"), 403, "forbidden", null);
    assertRefused(admin.as(reader).get("/v1/rooms/other-ns"), 403, "forbidden", null);
    assertThat(admin.get("/v1/rooms/empty-ns").json().get("rooms")).isEmpty();
    assertRefused(admin.get("/v1/rooms/b@d"), 400, "invalid_name", "namespace");
  }

  @Test
  void aReadTokenSeesEverythingAndChangesNothing() {
    String queue = aQueueIn("ro-ns", 1);
    String reader = RoomFixtures.token(admin, "ro-ns", "[\"read\"]", 0);
    Api readOnly = admin.as(reader);

    assertThat(readOnly.get(queue).status()).isEqualTo(200);
    assertThat(readOnly.get(queue + "/dead").status()).isEqualTo(200);
    assertThat(readOnly.get(queue + "/history").status()).isEqualTo(200);
    assertThat(readOnly.get("/v1/endpoints/ro-ns").status()).isEqualTo(200);

    assertRefused(readOnly.patch(queue, "{\"paused\": true}"), 403, "forbidden", null);
    assertRefused(
        readOnly.post(queue + "/dead/respawn", "{\"all\": true}"), 403, "forbidden", null);
    assertRefused(readOnly.delete(queue + "/dead"), 403, "forbidden", null);
    assertRefused(readOnly.post(queue + "/jobs", "{\"payload\": 1}"), 403, "forbidden", null);
    assertRefused(readOnly.post(queue + "/leases", "{}"), 403, "forbidden", null);
    assertThat(admin.get(queue).json().get("settings").get("paused").asBoolean()).isFalse();
  }

  @Test
  void theDashboardIsServedFromTheJarWithAStrictContentSecurityPolicy() {
    Api anyone = admin.as(null);
    Reply page = anyone.get("/ui");
    assertThat(page.status()).isEqualTo(200);
    assertThat(page.header("Content-Type")).startsWith("text/html");
    assertThat(page.header("Content-Security-Policy"))
        .isEqualTo(DashboardAssets.CONTENT_SECURITY_POLICY)
        .contains("script-src 'self'")
        .doesNotContain("unsafe-inline");
    assertThat(page.text()).contains("/ui/app.js");

    Reply script = anyone.get("/ui/app.js");
    assertThat(script.status()).isEqualTo(200);
    assertThat(script.header("Content-Type")).startsWith("text/javascript");
    assertThat(anyone.get("/ui/dom.js").text()).contains("createTextNode");
    for (String file : DashboardAssets.SCRIPTS) {
      // Data reaches the page as text nodes only: no HTML parsing anywhere in the dashboard.
      assertThat(anyone.get("/ui/" + file).text())
          .as(file)
          .doesNotContain("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write");
    }
    assertThat(anyone.get("/ui/api.js").text())
        .contains("sessionStorage")
        .doesNotContain("localStorage");

    Reply chart = anyone.get("/ui/vendor/uPlot.esm.js");
    assertThat(chart.status()).isEqualTo(200);
    assertThat(chart.text()).contains("uPlot");
    assertThat(anyone.get("/ui/vendor/uPlot-LICENSE.txt").text()).contains("MIT");

    assertRefused(anyone.get("/ui/secret.txt"), 404, "not_found", null);
    assertRefused(anyone.get("/ui/vendor/..%2Fapp.js"), 404, "not_found", null);
  }
}
