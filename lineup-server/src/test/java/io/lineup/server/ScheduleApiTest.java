package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.testing.RedisServerExtension;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Recurring schedules over HTTP: a queue's and an endpoint's, put, read, listed, paused, resumed,
 * deleted; their next ticks; bad input and unknown names; who may do what; and two servers on one
 * Redis making each tick's job once.
 */
class ScheduleApiTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  static final String NS = "sched";

  static TestTarget target;

  @BeforeAll
  static void startTarget() {
    target = TestTarget.start();
  }

  @AfterAll
  static void stopTarget() {
    target.close();
  }

  static String queue(String prefix) {
    return "/v1/queues/" + NS + "/" + RedisServerExtension.uniqueName(prefix).replace(':', '-');
  }

  /** The requests the target received for this path and query. */
  static List<TestTarget.Seen> sent(String path) {
    return target.seen().stream().filter(r -> r.path().equals(path)).toList();
  }

  static Reply put(Api api, String path, String body) {
    return api.put(path, body);
  }

  static void assertError(Reply reply, int status, String code, String field) {
    assertThat(reply.status()).as(reply.toString()).isEqualTo(status);
    assertThat(reply.field("error")).as(reply.toString()).isEqualTo(code);
    assertThat(reply.field("field")).as(reply.toString()).isEqualTo(field);
  }

  @Test
  void aQueuesScheduleIsPutReadListedChangedAndDeleted() {
    Api api = server.admin();
    String schedules = queue("crud") + "/schedules";
    String path = schedules + "/nightly";
    Reply created =
        put(
            api,
            path,
            "{\"cron\": \"0 0 2 * * *\", \"zone\": \"Europe/Paris\","
                + " \"job\": {\"payload\": {\"report\": \"sales\"}, \"priority\": 3,"
                + " \"ttl_ms\": 3600000, \"max_attempts\": 4, \"ttr_ms\": 60000, \"key\": \"k1\"},"
                + " \"start_at\": 1893456000000, \"max_runs\": 10,"
                + " \"jitter_ms\": 500, \"missed\": \"catch_up\", \"catch_up_max\": 7,"
                + " \"history_size\": 5}");
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    JsonNode view = created.json();
    assertThat(view.path("namespace").asText()).isEqualTo(NS);
    assertThat(view.path("name").asText()).isEqualTo("nightly");
    assertThat(view.path("endpoint").isNull()).isTrue();
    assertThat(view.path("cron").asText()).isEqualTo("0 0 2 * * *");
    assertThat(view.path("zone").asText()).isEqualTo("Europe/Paris");
    assertThat(view.path("every_ms").isNull()).isTrue();
    assertThat(view.path("job").path("payload").path("report").asText()).isEqualTo("sales");
    assertThat(view.path("job").has("payload_base64")).isFalse();
    assertThat(view.path("job").path("priority").asInt()).isEqualTo(3);
    assertThat(view.path("job").path("key").asText()).isEqualTo("k1");
    assertThat(view.path("job").path("ttl_ms").asLong()).isEqualTo(3_600_000);
    assertThat(view.path("job").path("max_attempts").asInt()).isEqualTo(4);
    assertThat(view.path("job").path("ttr_ms").asLong()).isEqualTo(60_000);
    // 2030-01-01T00:00:00Z
    assertThat(view.path("start_at").isIntegralNumber()).isTrue();
    assertThat(view.path("start_at").asLong()).isEqualTo(1_893_456_000_000L);
    assertThat(view.path("end_at").isNull()).isTrue();
    assertThat(view.path("max_runs").asLong()).isEqualTo(10);
    assertThat(view.path("jitter_ms").asLong()).isEqualTo(500);
    assertThat(view.path("missed").asText()).isEqualTo("catch_up");
    assertThat(view.path("catch_up_max").asInt()).isEqualTo(7);
    assertThat(view.path("history_size").asInt()).isEqualTo(5);
    assertThat(view.path("state").asText()).isEqualTo("active");
    assertThat(view.path("paused").asBoolean()).isFalse();
    assertThat(view.path("version").asLong()).isEqualTo(1);
    assertThat(view.path("runs").asLong()).isZero();
    assertThat(view.path("last_tick_at").isNull()).isTrue();
    // 02:00 in Paris on the first day of 2030 (winter time, UTC+1) is 01:00 UTC.
    assertThat(Instant.ofEpochMilli(view.path("next_tick_at").asLong()))
        .isEqualTo(Instant.parse("2030-01-01T01:00:00Z"));
    assertThat(view.path("history").isArray()).isTrue();

    assertThat(api.get(path).json()).isEqualTo(view);

    Reply changed = put(api, path, "{\"every_ms\": 3600000, \"job\": {\"payload\": 5}}");
    assertThat(changed.status()).as(changed.toString()).isEqualTo(200);
    assertThat(changed.json().path("version").asLong()).isEqualTo(2);
    assertThat(changed.json().path("cron").isNull()).isTrue();
    assertThat(changed.json().path("zone").isNull()).isTrue();
    assertThat(changed.json().path("every_ms").asLong()).isEqualTo(3_600_000);
    assertThat(changed.json().path("job").path("payload").asInt()).isEqualTo(5);
    assertThat(changed.json().path("missed").asText()).isEqualTo("skip");

    put(api, schedules + "/hourly", "{\"cron\": \"0 0 * * * *\", \"job\": {\"payload\": 1}}");
    List<String> names = new ArrayList<>();
    api.get(schedules).json().path("schedules").forEach(s -> names.add(s.path("name").asText()));
    assertThat(names).containsExactly("hourly", "nightly");

    assertThat(api.delete(path).status()).isEqualTo(204);
    assertError(api.get(path), 404, "schedule_not_found", "name");
    assertError(api.delete(path), 404, "schedule_not_found", "name");
  }

  @Test
  void aPayloadThatIsNotJsonIsKeptAsBytesAndShownInBase64() {
    Api api = server.admin();
    String path = queue("bytes") + "/schedules/raw";
    Reply created =
        put(api, path, "{\"every_ms\": 86400000, \"job\": {\"payload_base64\": \"AAEC/w==\"}}");
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    assertThat(created.json().path("job").path("payload_base64").asText()).isEqualTo("AAEC/w==");
    assertThat(created.json().path("job").has("payload")).isFalse();
    Reply json = put(api, path, "{\"every_ms\": 86400000, \"job\": {\"payload\": {\"a\": 1}}}");
    assertThat(
            api.get(path + "?payload_encoding=base64")
                .json()
                .path("job")
                .path("payload_base64")
                .asText())
        .isEqualTo(java.util.Base64.getEncoder().encodeToString("{\"a\":1}".getBytes()));
    assertThat(json.status()).isEqualTo(200);
  }

  @Test
  void aBadCronExpressionIsA400NamingTheCronFieldAndTheWrongPartOfIt() {
    Api api = server.admin();
    String path = queue("cron") + "/schedules/bad";
    Reply minutes = put(api, path, "{\"cron\": \"0 61 * * * *\", \"job\": {\"payload\": 1}}");
    assertError(minutes, 400, "invalid_field", "cron");
    assertThat(minutes.field("message")).contains("minutes").contains("61");
    Reply fiveFields = put(api, path, "{\"cron\": \"0 2 * * *\", \"job\": {\"payload\": 1}}");
    assertError(fiveFields, 400, "invalid_field", "cron");
    assertThat(fiveFields.field("message")).contains("6 fields");
    assertThat(api.get(path).status()).isEqualTo(404);
  }

  @Test
  void everyOtherBadFieldIsA400NamingIt() {
    Api api = server.admin();
    String path = queue("bad") + "/schedules/bad";
    String job = "\"job\": {\"payload\": 1}";
    assertError(put(api, path, "{" + job + "}"), 400, "invalid_field", "cron");
    assertError(
        put(api, path, "{\"cron\": \"0 0 2 * * *\", \"every_ms\": 1000, " + job + "}"),
        400,
        "invalid_field",
        "every_ms");
    assertError(
        put(api, path, "{\"every_ms\": 1000, \"zone\": \"UTC\", " + job + "}"),
        400,
        "invalid_field",
        "zone");
    assertError(
        put(api, path, "{\"cron\": \"0 0 2 * * *\", \"zone\": \"Mars/Olympus\", " + job + "}"),
        400,
        "invalid_field",
        "zone");
    assertError(put(api, path, "{\"every_ms\": 5, " + job + "}"), 400, "invalid_field", "every_ms");
    assertError(put(api, path, "{\"every_ms\": 1000}"), 400, "invalid_field", "job");
    assertError(
        put(api, path, "{\"every_ms\": 1000, \"job\": {}}"), 400, "invalid_field", "job.payload");
    assertError(
        put(api, path, "{\"every_ms\": 1000, \"job\": {\"payload\": 1, \"ttl_ms\": 0}}"),
        400,
        "invalid_field",
        "job.ttl_ms");
    assertError(
        put(api, path, "{\"every_ms\": 1000, \"job\": {\"payload\": 1, \"delay_ms\": 5}}"),
        400,
        "unknown_field",
        "job.delay_ms");
    assertError(
        put(api, path, "{\"every_ms\": 1000, \"start_at\": \"tomorrow\", " + job + "}"),
        400,
        "invalid_field",
        "start_at");
    // Times are epoch milliseconds, as every _at field: RFC 3339 text is refused too.
    assertError(
        put(api, path, "{\"every_ms\": 1000, \"start_at\": \"2030-01-01T00:00:00Z\", " + job + "}"),
        400,
        "invalid_field",
        "start_at");
    assertError(
        put(api, path, "{\"every_ms\": 1000, \"end_at\": \"2030-01-01T00:00:00Z\", " + job + "}"),
        400,
        "invalid_field",
        "end_at");
    assertError(
        put(api, path, "{\"every_ms\": 1000, \"start_at\": -1, " + job + "}"),
        400,
        "invalid_field",
        "start_at");
    assertError(
        put(
            api,
            path,
            "{\"every_ms\": 1000, \"start_at\": 1924992000000,"
                + " \"end_at\": 1893452400000, "
                + job
                + "}"),
        400,
        "invalid_field",
        "end_at");
    assertError(
        put(api, path, "{\"every_ms\": 1000, \"missed\": \"later\", " + job + "}"),
        400,
        "invalid_field",
        "missed");
    assertError(
        put(api, path, "{\"every_ms\": 1000, \"catch_up_max\": 0, " + job + "}"),
        400,
        "invalid_field",
        "catch_up_max");
    assertError(
        put(api, path, "{\"every_ms\": 1000, \"history_size\": 1001, " + job + "}"),
        400,
        "invalid_field",
        "history_size");
    assertError(
        put(api, path, "{\"every_ms\": 1000, \"jitter_ms\": -1, " + job + "}"),
        400,
        "invalid_field",
        "jitter_ms");
    assertError(
        put(api, path, "{\"every_ms\": 1000, \"often\": true, " + job + "}"),
        400,
        "unknown_field",
        "often");
    assertError(put(api, path, "[1]"), 400, "invalid_json", null);
    assertError(api.get(queue("bad") + "/schedules/a%20b"), 400, "invalid_name", "name");
    assertThat(api.get(path).status()).isEqualTo(404);
  }

  @Test
  void anUnknownScheduleIsA404ScheduleNotFoundOnEveryRoute() {
    Api api = server.admin();
    String path = queue("unknown") + "/schedules/none";
    assertError(api.get(path), 404, "schedule_not_found", "name");
    assertError(api.delete(path), 404, "schedule_not_found", "name");
    assertError(api.post(path + "/pause", "{}"), 404, "schedule_not_found", "name");
    assertError(api.post(path + "/resume", "{}"), 404, "schedule_not_found", "name");
    assertError(api.get(path + "/next"), 404, "schedule_not_found", "name");
    assertThat(api.get(queue("unknown") + "/schedules").json().path("schedules")).isEmpty();
  }

  @Test
  void theNextTicksFollowTheCronExpressionInItsZone() {
    Api api = server.admin();
    String path = queue("next") + "/schedules/daily";
    put(
        api,
        path,
        "{\"cron\": \"0 30 9 * * MON-FRI\", \"zone\": \"America/New_York\","
            + " \"job\": {\"payload\": 1}}");
    JsonNode next = api.get(path + "/next?count=12").json();
    assertThat(next.path("name").asText()).isEqualTo("daily");
    assertThat(next.path("ticks_at")).hasSize(12);
    Instant previous = null;
    for (JsonNode tick : next.path("ticks_at")) {
      assertThat(tick.isIntegralNumber()).isTrue();
      var local = Instant.ofEpochMilli(tick.asLong()).atZone(ZoneId.of("America/New_York"));
      assertThat(local.getHour()).isEqualTo(9);
      assertThat(local.getMinute()).isEqualTo(30);
      assertThat(local.getDayOfWeek().getValue()).isBetween(1, 5);
      if (previous != null) {
        assertThat(Instant.ofEpochMilli(tick.asLong())).isAfter(previous);
      }
      previous = Instant.ofEpochMilli(tick.asLong());
    }
    assertThat(api.get(path + "/next").json().path("ticks_at")).hasSize(5);
    assertError(api.get(path + "/next?count=0"), 400, "invalid_field", "count");
    assertError(api.get(path + "/next?count=101"), 400, "invalid_field", "count");
    assertThat(api.get(path + "/next?count=100").json().path("ticks_at")).hasSize(100);
  }

  @Test
  void aPausedScheduleHasNoNextTickUntilResumedAndAPutWithoutPausedKeepsItPaused() {
    Api api = server.admin();
    String path = queue("pause") + "/schedules/p";
    put(api, path, "{\"every_ms\": 60000, \"job\": {\"payload\": 1}}");
    JsonNode paused = api.post(path + "/pause", "{}").json();
    assertThat(paused.path("state").asText()).isEqualTo("paused");
    assertThat(paused.path("paused").asBoolean()).isTrue();
    assertThat(paused.path("next_tick_at").isNull()).isTrue();
    assertThat(api.get(path + "/next").json().path("ticks_at")).isEmpty();

    JsonNode changed = put(api, path, "{\"every_ms\": 30000, \"job\": {\"payload\": 2}}").json();
    assertThat(changed.path("state").asText()).isEqualTo("paused");
    assertThat(changed.path("version").asLong()).isEqualTo(2);

    JsonNode resumed = api.post(path + "/resume", "{}").json();
    assertThat(resumed.path("state").asText()).isEqualTo("active");
    assertThat(resumed.path("next_tick_at").isNull()).isFalse();
    assertThat(api.get(path + "/next?count=2").json().path("ticks_at")).hasSize(2);
    assertThat(
            put(api, path, "{\"every_ms\": 30000, \"paused\": true, \"job\": {\"payload\": 2}}")
                .json()
                .path("state")
                .asText())
        .isEqualTo("paused");
  }

  @Test
  void writingTakesThePublishScopeReadingAnyScopeOfTheNamespace() {
    Api admin = server.admin();
    String queue = queue("auth");
    String path = queue + "/schedules/s";
    String body = "{\"every_ms\": 60000, \"job\": {\"payload\": 1, \"priority\": 5}}";
    Api reader = admin.as(DispatchFixtures.token(admin, NS, "[\"read\"]", 0));
    Api consumer = admin.as(DispatchFixtures.token(admin, NS, "[\"consume\"]", 0));
    Api manager = admin.as(DispatchFixtures.token(admin, NS, "[\"manage\"]", 0));
    Api publisher = admin.as(DispatchFixtures.token(admin, NS, "[\"publish\"]", 5));
    Api lowPublisher = admin.as(DispatchFixtures.token(admin, NS, "[\"publish\"]", 1));
    Api stranger = admin.as(DispatchFixtures.token(admin, "elsewhere", "[\"publish\"]", 9));

    assertError(put(reader, path, body), 403, "forbidden", null);
    assertError(put(consumer, path, body), 403, "forbidden", null);
    assertError(put(manager, path, body), 403, "forbidden", null);
    assertError(put(stranger, path, body), 403, "forbidden", null);
    assertError(put(lowPublisher, path, body), 403, "priority_not_allowed", "job.priority");
    assertThat(put(publisher, path, body).status()).isEqualTo(201);

    for (Api any : List.of(reader, consumer, manager, publisher)) {
      assertThat(any.get(path).status()).isEqualTo(200);
      assertThat(any.get(queue + "/schedules").status()).isEqualTo(200);
      assertThat(any.get(path + "/next").status()).isEqualTo(200);
    }
    assertThat(stranger.get(path).status()).isEqualTo(403);
    assertError(reader.post(path + "/pause", "{}"), 403, "forbidden", null);
    assertError(consumer.post(path + "/pause", "{}"), 403, "forbidden", null);
    assertThat(manager.post(path + "/pause", "{}").status()).isEqualTo(200);
    assertThat(publisher.post(path + "/resume", "{}").status()).isEqualTo(200);
    assertError(reader.delete(path), 403, "forbidden", null);
    assertThat(manager.delete(path).status()).isEqualTo(204);

    // Lineup's own queues are not reachable through the queue routes, whoever asks.
    assertError(
        put(admin, "/v1/queues/" + NS + "/dispatch.x/schedules/s", body),
        403,
        "reserved_queue",
        "queue");
    assertError(
        admin.get("/v1/queues/" + NS + "/room.x/schedules"), 403, "reserved_queue", "queue");
  }

  @Test
  void twoServersOnOneRedisPublishEachTickOfAShortIntervalOnce() {
    Api first = server.admin();
    Api second = Api.adminOf(server.startAnother());
    String queue = queue("race");
    String path = queue + "/schedules/fast";
    put(
        first,
        path,
        "{\"every_ms\": 50, \"missed\": \"catch_up\", \"catch_up_max\": 1000,"
            + " \"history_size\": 1000, \"job\": {\"payload\": {\"tick\": true}}}");
    // Both servers' drivers race for the same ticks; let them make at least 40 jobs.
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> second.get(path).json().path("runs").asLong() >= 40);
    assertThat(second.post(path + "/pause", "{}").status()).isEqualTo(200);
    // A tick fired ahead of its time waits as a delayed job until its tick.
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> first.get(queue).json().at("/counts/delayed").asLong() == 0);

    List<String> jobIds = new ArrayList<>();
    while (true) {
      Reply leased = first.post(queue + "/leases", "{\"count\": 1000, \"wait_ms\": 0}");
      if (leased.status() == 204 || leased.json().path("jobs").isEmpty()) {
        break;
      }
      leased.json().path("jobs").forEach(j -> jobIds.add(j.path("id").asText()));
    }
    // Read after the leases: a job published after the pause would show here as a run too many.
    JsonNode stopped = first.get(path).json();
    long runs = stopped.path("runs").asLong();
    assertThat(runs).isGreaterThanOrEqualTo(40);
    assertThat(jobIds).hasSize((int) runs);
    assertThat(new HashSet<>(jobIds)).hasSize(jobIds.size());
    Set<String> ticks = new HashSet<>();
    for (String id : jobIds) {
      assertThat(id).startsWith("sched:fast:");
      ticks.add(id.substring("sched:fast:".length()));
    }
    assertThat(ticks).hasSize(jobIds.size());
    Set<String> published = new HashSet<>();
    for (JsonNode run : stopped.path("history")) {
      if (run.path("outcome").asText().equals("published")) {
        published.add(run.path("job_id").asText());
      }
    }
    assertThat(published).containsExactlyInAnyOrderElementsOf(jobIds);
  }

  @Test
  void anEndpointsScheduleSubmitsItsTaskAtEveryTickWithAKeyOfItsOwnPerTask() {
    Api api = server.admin();
    String endpoint =
        DispatchFixtures.endpoint(api, NS, DispatchFixtures.name("tick"), target.url(), "");
    String path = endpoint + "/schedules/sync";
    Reply created =
        put(
            api,
            path,
            "{\"every_ms\": 200, \"task\": {\"path\": \"/sync?full=1\","
                + " \"headers\": {\"X-Run\": \"nightly\"}, \"body\": {\"full\": true}}}");
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    JsonNode task = created.json().path("task");
    assertThat(created.json().path("queue").isNull()).isTrue();
    assertThat(created.json().path("job").isNull()).isTrue();
    assertThat(created.json().path("endpoint").asText())
        .isEqualTo(endpoint.substring(endpoint.lastIndexOf('/') + 1));
    assertThat(task.path("method").asText()).isEqualTo("POST");
    assertThat(task.path("path").asText()).isEqualTo("/sync?full=1");
    assertThat(task.path("headers").path("X-Run").asText()).isEqualTo("nightly");
    assertThat(task.path("content_type").asText()).isEqualTo("application/json");
    assertThat(task.path("body").path("full").asBoolean()).isTrue();

    await().atMost(Duration.ofSeconds(60)).until(() -> sent("/sync?full=1").size() >= 3);
    assertThat(api.post(path + "/pause", "{}").status()).isEqualTo(200);
    List<TestTarget.Seen> seen = sent("/sync?full=1");
    Set<String> keys = new HashSet<>();
    for (TestTarget.Seen request : seen) {
      assertThat(request.header("X-Run")).isEqualTo("nightly");
      assertThat(request.bodyText()).isEqualTo("{\"full\":true}");
      String key = request.header("Idempotency-Key");
      assertThat(key).contains(":sched:sync:");
      keys.add(key);
    }
    assertThat(keys).hasSize(seen.size());

    // Each tick's task is a task of the endpoint, readable by its id.
    JsonNode run = api.get(path).json().path("history").get(0);
    String jobId = run.path("job_id").asText();
    // Its tick, in epoch milliseconds, is the one its id names (sched:NAME:TICK_MS).
    assertThat(run.path("tick_at").isIntegralNumber()).isTrue();
    assertThat(jobId).startsWith("sched:").endsWith(":" + run.path("tick_at").asLong());
    assertThat(run.path("published_at").isIntegralNumber()).isTrue();
    assertThat(api.get(endpoint + "/tasks/" + jobId).json().path("path").asText())
        .isEqualTo("/sync?full=1");
    assertThat(api.get(endpoint + "/schedules").json().path("schedules")).hasSize(1);
    assertThat(api.get(endpoint + "/schedules/sync/next?count=2").status()).isEqualTo(200);

    // A deleted endpoint takes its schedules with it.
    assertThat(api.delete(endpoint).status()).isEqualTo(204);
    DispatchFixtures.endpoint(
        api, NS, endpoint.substring(endpoint.lastIndexOf('/') + 1), target.url(), "");
    assertError(api.get(path), 404, "schedule_not_found", "name");
  }

  @Test
  void anEndpointsScheduleChecksItsTaskAsASubmitDoes() {
    Api api = server.admin();
    String endpoint =
        DispatchFixtures.endpoint(
            api, NS, DispatchFixtures.name("check"), target.url(), "\"methods\": [\"GET\"]");
    String path = endpoint + "/schedules/s";
    assertError(put(api, path, "{\"every_ms\": 1000}"), 400, "invalid_field", "task");
    assertError(
        put(api, path, "{\"every_ms\": 1000, \"task\": {\"method\": \"POST\"}}"),
        400,
        "invalid_field",
        "task.method");
    assertError(
        put(api, path, "{\"every_ms\": 1000, \"task\": {\"path\": \"http://elsewhere/\"}}"),
        400,
        "invalid_field",
        "task.path");
    assertError(
        put(api, path, "{\"every_ms\": 1000, \"task\": {\"delay_ms\": 5}}"),
        400,
        "unknown_field",
        "task.delay_ms");
    assertError(
        put(api, path, "{\"every_ms\": 1000, \"job\": {\"payload\": 1}, \"task\": {}}"),
        400,
        "unknown_field",
        "job");
    assertError(
        put(api, path, "{\"cron\": \"* * *\", \"task\": {}}"), 400, "invalid_field", "cron");
    assertError(
        put(
            api,
            "/v1/endpoints/" + NS + "/nowhere/schedules/s",
            "{\"every_ms\": 1000, \"task\": {}}"),
        404,
        "not_found",
        "endpoint");
    assertError(
        put(
            api,
            path,
            "{\"every_ms\": 1000, \"task\": {\"callback_url\": \"https://hooks.example/x\"}}"),
        400,
        "invalid_field",
        "task.callback_url");
    // Paused: its first tick would be at once, and nothing here needs a request sent.
    assertThat(put(api, path, "{\"every_ms\": 60000, \"paused\": true, \"task\": {}}").status())
        .isEqualTo(201);
    assertThat(api.get(path).json().path("task").path("method").asText()).isEqualTo("GET");

    // An endpoint's schedules: written with the publish scope, read as its tasks are.
    Api reader = api.as(DispatchFixtures.token(api, NS, "[\"read\"]", 0));
    Api consumer = api.as(DispatchFixtures.token(api, NS, "[\"consume\"]", 0));
    Api manager = api.as(DispatchFixtures.token(api, NS, "[\"manage\"]", 0));
    Api publisher = api.as(DispatchFixtures.token(api, NS, "[\"publish\"]", 0));
    String body = "{\"every_ms\": 60000, \"paused\": true, \"task\": {}}";
    assertError(put(reader, path, body), 403, "forbidden", null);
    assertError(put(manager, path, body), 403, "forbidden", null);
    assertThat(put(publisher, path, body).status()).isEqualTo(200);
    assertThat(reader.get(path).status()).isEqualTo(200);
    assertThat(reader.get(endpoint + "/schedules").status()).isEqualTo(200);
    assertError(consumer.get(path), 403, "forbidden", null);
    assertError(reader.post(path + "/resume", "{}"), 403, "forbidden", null);
    assertThat(manager.post(path + "/resume", "{}").status()).isEqualTo(200);
    assertThat(manager.post(path + "/pause", "{}").status()).isEqualTo(200);
    assertThat(manager.delete(path).status()).isEqualTo(204);
  }

  @Test
  void schedulesThatNeverTickOrHaveEndedAreAnsweredNot500() {
    Api api = server.admin();
    String queue = queue("edges");
    String job = "\"job\": {\"payload\": 1}";
    for (String body :
        List.of(
            "{\"cron\": \"0 0 0 30 2 *\", " + job + "}",
            "{\"every_ms\": 1000, \"end_at\": 978307200000, " + job + "}",
            "{\"every_ms\": 315360000000, \"max_runs\": 4611686018427387903, " + job + "}",
            "{\"cron\": \"0 0 2 * * *\", \"zone\": \"+05:30\", \"history_size\": 0, " + job + "}",
            "{\"cron\": \"0 0 2 1 * ?\", \"jitter_ms\": 86400000, " + job + "}",
            // The latest start_at taken (9999-12-31T23:59:59.999Z) and the earliest end_at.
            "{\"every_ms\": 1000, \"start_at\": 253402300799999, " + job + "}",
            "{\"cron\": \"0 0 2 * * *\", \"start_at\": 253402300799999, " + job + "}",
            "{\"every_ms\": 1000, \"end_at\": 0, " + job + "}")) {
      String path = queue + "/schedules/" + RedisServerExtension.uniqueName("e").replace(':', '-');
      Reply put = put(api, path, body);
      assertThat(put.status()).as(body + " -> " + put).isEqualTo(201);
      Reply next = api.get(path + "/next?count=100");
      assertThat(next.status()).as(body + " -> " + next).isEqualTo(200);
      assertThat(api.get(path).status()).isEqualTo(200);
      assertThat(api.post(path + "/pause", "{}").status()).isEqualTo(200);
      assertThat(api.post(path + "/resume", "{}").status()).isEqualTo(200);
    }
    assertThat(api.get(queue + "/schedules").json().path("schedules")).hasSize(8);
  }
}
