package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.testing.RedisServerExtension;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A fair queue's keys over HTTP: jobs published with a key, the keys with most jobs, one key's
 * view, its own weight, pausing and resuming it, deleting its waiting jobs, the 429 of a full key,
 * bad keys and values, and who may do what.
 */
class FairKeysApiTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  static final String NS = "fairshop";

  /** A fair queue of its own, as a path. */
  static String fairQueue(Api api, String prefix) {
    String queue =
        "/v1/queues/" + NS + "/" + RedisServerExtension.uniqueName(prefix).replace(':', '-');
    Reply patched = api.patch(queue, "{\"fair\": true}");
    assertThat(patched.status()).as(patched.toString()).isEqualTo(200);
    return queue;
  }

  static Reply publish(Api api, String queue, String tenant, String payload) {
    return api.post(queue + "/jobs", "{\"payload\": " + payload + ", \"key\": \"" + tenant + "\"}");
  }

  static void assertError(Reply reply, int status, String code, String field) {
    assertThat(reply.status()).as(reply.toString()).isEqualTo(status);
    assertThat(reply.field("error")).as(reply.toString()).isEqualTo(code);
    assertThat(reply.field("field")).as(reply.toString()).isEqualTo(field);
  }

  static List<String> keysOf(JsonNode counts) {
    List<String> keys = new ArrayList<>();
    counts.path("keys").forEach(k -> keys.add(k.path("key").asText() + "=" + k.path("count")));
    return keys;
  }

  @Test
  void aJobPublishedWithAKeyShowsItsKeyAndOneWithoutShowsNull() {
    Api api = server.admin();
    String queue = fairQueue(api, "jobkey");
    Reply acme = publish(api, queue, "acme", "{\"order\": 1}");
    assertThat(acme.status()).as(acme.toString()).isEqualTo(201);
    Reply plain = api.post(queue + "/jobs", "{\"payload\": 2}");

    assertThat(api.get(queue + "/jobs/" + acme.field("id")).json().path("key").asText())
        .isEqualTo("acme");
    JsonNode none = api.get(queue + "/jobs/" + plain.field("id")).json();
    assertThat(none.has("key")).isTrue();
    assertThat(none.path("key").isNull()).isTrue();
  }

  @Test
  void theKeysWithMostJobsComeFirstByWaitingOrLeased() {
    Api api = server.admin();
    String queue = fairQueue(api, "top");
    for (int i = 0; i < 3; i++) {
      publish(api, queue, "acme", Integer.toString(i));
    }
    publish(api, queue, "globex", "9");

    JsonNode waiting = api.get(queue + "/keys").json();
    assertThat(waiting.path("by").asText()).isEqualTo("waiting");
    assertThat(waiting.path("keys_waiting").asLong()).isEqualTo(2);
    assertThat(waiting.path("keys_leased").asLong()).isZero();
    assertThat(keysOf(waiting)).containsExactly("acme=3", "globex=1");
    assertThat(keysOf(api.get(queue + "/keys?limit=1").json())).containsExactly("acme=3");

    Reply lease = api.post(queue + "/leases", "{}");
    assertThat(lease.status()).as(lease.toString()).isEqualTo(200);
    String leasedKey =
        api.get(queue + "/jobs/" + lease.json().path("jobs").get(0).path("id").asText())
            .json()
            .path("key")
            .asText();
    JsonNode leased = api.get(queue + "/keys?by=leased").json();
    assertThat(leased.path("by").asText()).isEqualTo("leased");
    assertThat(leased.path("keys_leased").asLong()).isEqualTo(1);
    assertThat(keysOf(leased)).containsExactly(leasedKey + "=1");
  }

  @Test
  void aKeyShowsItsOwnAndEffectiveSettingsAndItsCounts() {
    Api api = server.admin();
    String queue = fairQueue(api, "view");
    publish(api, queue, "acme", "1");
    publish(api, queue, "acme", "2");

    JsonNode view = api.get(queue + "/keys/acme").json();
    assertThat(view.path("key").asText()).isEqualTo("acme");
    assertThat(view.path("own").path("weight").isNull()).isTrue();
    assertThat(view.path("effective").path("weight").asInt()).isEqualTo(1);
    assertThat(view.path("effective").path("rate_period_ms").asLong()).isEqualTo(1000);
    assertThat(view.path("paused").asBoolean()).isFalse();
    assertThat(view.path("waiting").asLong()).isEqualTo(2);
    assertThat(view.path("leased").asLong()).isZero();
    assertThat(view.path("parked").asLong()).isZero();

    JsonNode stranger = api.get(queue + "/keys/never-seen").json();
    assertThat(stranger.path("waiting").asLong()).isZero();
    assertThat(stranger.path("effective").path("weight").asInt()).isEqualTo(1);
  }

  @Test
  void aKeysOwnWeightAndLimitsAreSetAndAnAbsentValueTakesTheQueues() {
    Api api = server.admin();
    String queue = fairQueue(api, "set");
    Reply set =
        api.put(
            queue + "/keys/acme",
            "{\"weight\": 3, \"concurrency\": 2, \"rate\": 50, \"rate_period_ms\": 60000,"
                + " \"max_waiting\": 100}");
    assertThat(set.status()).as(set.toString()).isEqualTo(200);
    JsonNode own = set.json().path("own");
    assertThat(own.path("weight").asInt()).isEqualTo(3);
    assertThat(own.path("concurrency").asInt()).isEqualTo(2);
    assertThat(own.path("rate").asInt()).isEqualTo(50);
    assertThat(own.path("rate_period_ms").asLong()).isEqualTo(60_000);
    assertThat(own.path("max_waiting").asInt()).isEqualTo(100);
    assertThat(set.json().path("effective").path("weight").asInt()).isEqualTo(3);
    assertThat(api.get(queue + "/keys/acme").json()).isEqualTo(set.json());

    JsonNode reset = api.put(queue + "/keys/acme", "{\"weight\": 2}").json();
    assertThat(reset.path("own").path("weight").asInt()).isEqualTo(2);
    assertThat(reset.path("own").path("concurrency").isNull()).isTrue();
    assertThat(reset.path("effective").path("concurrency").asInt()).isZero();
  }

  @Test
  void aPausedKeyIsPassedOverWhileOtherKeysAreServedUntilItIsResumed() {
    Api api = server.admin();
    String queue = fairQueue(api, "pause");
    String held = publish(api, queue, "acme", "1").field("id");
    String served = publish(api, queue, "globex", "2").field("id");

    JsonNode paused = api.post(queue + "/keys/acme/pause", "{}").json();
    assertThat(paused.path("paused").asBoolean()).isTrue();
    Reply lease = api.post(queue + "/leases", "{\"count\": 10}");
    assertThat(lease.status()).as(lease.toString()).isEqualTo(200);
    List<String> ids = new ArrayList<>();
    lease.json().path("jobs").forEach(j -> ids.add(j.path("id").asText()));
    assertThat(ids).containsExactly(served);

    JsonNode resumed = api.post(queue + "/keys/acme/resume", "{}").json();
    assertThat(resumed.path("paused").asBoolean()).isFalse();
    Reply again = api.post(queue + "/leases", "{}");
    assertThat(again.status()).as(again.toString()).isEqualTo(200);
    assertThat(again.json().path("jobs").get(0).path("id").asText()).isEqualTo(held);
  }

  @Test
  void deletingAKeysWaitingJobsLeavesOtherKeysAlone() {
    Api api = server.admin();
    String queue = fairQueue(api, "drop");
    publish(api, queue, "acme", "1");
    publish(api, queue, "acme", "2");
    api.post(queue + "/jobs", "{\"payload\": 3, \"key\": \"acme\", \"delay_ms\": 3600000}");
    String other = publish(api, queue, "globex", "4").field("id");

    Reply dropped = api.delete(queue + "/keys/acme/jobs");
    assertThat(dropped.status()).as(dropped.toString()).isEqualTo(200);
    assertThat(dropped.json().path("deleted").asLong()).isEqualTo(3);
    assertThat(api.get(queue + "/keys/acme").json().path("waiting").asLong()).isZero();
    assertThat(api.get(queue + "/jobs/" + other).json().path("state").asText()).isEqualTo("READY");
  }

  @Test
  void aPublishPastAKeysMaxWaitingIs429WithTheKeyAndItsCounts() {
    Api api = server.admin();
    String queue = fairQueue(api, "full");
    api.put(queue + "/keys/acme", "{\"max_waiting\": 2}");
    publish(api, queue, "acme", "1");
    publish(api, queue, "acme", "2");

    Reply full = publish(api, queue, "acme", "3");
    assertError(full, 429, "key_backlog_full", "key");
    assertThat(full.json().path("key").asText()).isEqualTo("acme");
    assertThat(full.json().path("max_waiting").asLong()).isEqualTo(2);
    assertThat(full.json().path("waiting").asLong()).isEqualTo(2);
    assertThat(full.header("Retry-After")).isNull();
    assertThat(api.get(queue + "/keys/acme").json().path("waiting").asLong()).isEqualTo(2);
    assertThat(publish(api, queue, "globex", "4").status()).isEqualTo(201);
  }

  @Test
  void aBadKeyOrValueIs400NamingIt() {
    Api api = server.admin();
    String queue = fairQueue(api, "bad");
    assertError(publish(api, queue, "has space", "1"), 400, "invalid_field", "key");
    assertError(
        api.post(queue + "/jobs", "[{\"payload\": 1}, {\"payload\": 2, \"key\": \"\"}]"),
        400,
        "invalid_field",
        "jobs[1].key");
    assertError(publish(api, queue, "x".repeat(129), "1"), 400, "invalid_field", "key");
    assertError(api.get(queue + "/keys/bad%20key"), 400, "invalid_field", "key");
    assertError(api.put(queue + "/keys/acme", "{\"weight\": 0}"), 400, "invalid_field", "weight");
    assertError(
        api.put(queue + "/keys/acme", "{\"rate_period_ms\": 5}"),
        400,
        "invalid_field",
        "rate_period_ms");
    assertError(api.put(queue + "/keys/acme", "{\"colour\": 1}"), 400, "unknown_field", "colour");
    assertError(api.get(queue + "/keys?by=oldest"), 400, "invalid_field", "by");
    assertError(api.get(queue + "/keys?limit=1001"), 400, "invalid_field", "limit");
  }

  @Test
  void aKeyWithASlashIsReachedPercentEncoded() {
    Api api = server.admin();
    String queue = fairQueue(api, "slash");
    publish(api, queue, "org/acme", "1");
    JsonNode view = api.get(queue + "/keys/org%2Facme").json();
    assertThat(view.path("key").asText()).isEqualTo("org/acme");
    assertThat(view.path("waiting").asLong()).isEqualTo(1);
  }

  @Test
  void readingKeysTakesAnyScopeAndChangingThemTakesManage() {
    Api admin = server.admin();
    String queue = fairQueue(admin, "scopes");
    Api reader = admin.as(DispatchFixtures.token(admin, NS, "[\"read\"]", 0));
    Api publisher = admin.as(DispatchFixtures.token(admin, NS, "[\"publish\"]", 0));
    Api manager = admin.as(DispatchFixtures.token(admin, NS, "[\"manage\"]", 0));

    assertThat(reader.get(queue + "/keys").status()).isEqualTo(200);
    assertThat(reader.get(queue + "/keys/acme").status()).isEqualTo(200);
    assertThat(publisher.put(queue + "/keys/acme", "{\"weight\": 2}").status()).isEqualTo(403);
    assertThat(publisher.post(queue + "/keys/acme/pause", "{}").status()).isEqualTo(403);
    assertThat(reader.delete(queue + "/keys/acme/jobs").status()).isEqualTo(403);
    assertThat(manager.put(queue + "/keys/acme", "{\"weight\": 2}").status()).isEqualTo(200);
    assertThat(manager.post(queue + "/keys/acme/pause", "{}").status()).isEqualTo(200);
    assertThat(manager.post(queue + "/keys/acme/resume", "{}").status()).isEqualTo(200);
    assertThat(manager.delete(queue + "/keys/acme/jobs").status()).isEqualTo(200);
  }

  @Test
  void aQueuesFairSettingsAreReadAndChangedWithItsOtherSettings() {
    Api api = server.admin();
    String queue = fairQueue(api, "settings");
    Reply patched =
        api.patch(
            queue,
            "{\"key_concurrency\": 4, \"key_rate\": 10, \"key_rate_period_ms\": 2000,"
                + " \"key_max_waiting\": 50}");
    assertThat(patched.status()).as(patched.toString()).isEqualTo(200);
    JsonNode settings = api.get(queue).json().path("settings");
    assertThat(settings.path("fair").asBoolean()).isTrue();
    assertThat(settings.path("key_concurrency").asLong()).isEqualTo(4);
    assertThat(settings.path("key_rate").asLong()).isEqualTo(10);
    assertThat(settings.path("key_rate_period_ms").asLong()).isEqualTo(2000);
    assertThat(settings.path("key_max_waiting").asLong()).isEqualTo(50);
    assertThat(api.get(queue + "/keys/acme").json().path("effective").path("concurrency").asInt())
        .isEqualTo(4);
  }
}
