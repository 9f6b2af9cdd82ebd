package io.lineup.server;

import static io.lineup.server.ObservabilityTest.sample;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.core.Lineup;
import io.lineup.core.LineupOptions;
import io.lineup.core.model.KeySettings;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Keys section of the dashboard's queue page ({@code GET /v1/queues/{ns}/{queue}/fairness}): a
 * fair queue's keys with most jobs waiting and leased, their share, weight, limits and pause; one
 * line for a queue that is not fair; and the key gauges of {@code /metrics}.
 */
class DashboardKeysTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  static Api admin;
  static Lineup engine;

  @BeforeAll
  static void connect() {
    admin = server.admin();
    engine = Lineup.connect(LineupOptions.builder(server.redis().uri()).build());
  }

  @AfterAll
  static void disconnect() {
    engine.close();
  }

  /**
   * A shop's fair queue of emails, at most two per tenant at once: tenant "acme" (weight 3) with 6
   * emails waiting, tenant "globex" paused with 3, one email without a tenant, and tenant "initech"
   * with its one email being sent.
   */
  static QueueName aShopsFairQueueOfEmails() {
    QueueName queue = QueueName.of("shop", RoomFixtures.name("emails"));
    engine.configure(queue, QueueSettings.builder().fair(true).keyConcurrency(2).build());
    engine.publish(queue, anEmailFor("initech"));
    assertThat(engine.lease(queue, 1, Duration.ZERO).jobs()).hasSize(1);
    engine.fairness().configure(queue, "acme", new KeySettings(3, null, null, null, null, false));
    engine.fairness().pause(queue, "globex");
    List<NewJob> emails = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      emails.add(anEmailFor("acme"));
    }
    for (int i = 0; i < 3; i++) {
      emails.add(anEmailFor("globex"));
    }
    emails.add(NewJob.of("{\"to\": \"someone\"}".getBytes(StandardCharsets.UTF_8)));
    engine.publishAll(queue, emails);
    return queue;
  }

  /** A shop's queue of orders that is not fair, with an order waiting. */
  static QueueName aShopsPlainQueueOfOrders() {
    QueueName queue = QueueName.of("shop", RoomFixtures.name("orders"));
    engine.publish(queue, NewJob.of("{\"order\": 42}".getBytes(StandardCharsets.UTF_8)));
    return queue;
  }

  static NewJob anEmailFor(String tenant) {
    return NewJob.of(("{\"tenant\": \"" + tenant + "\"}").getBytes(StandardCharsets.UTF_8))
        .key(tenant);
  }

  static String pathOf(QueueName queue) {
    return "/v1/queues/" + queue.namespace() + "/" + queue.name();
  }

  static JsonNode keyIn(JsonNode list, String key) {
    for (JsonNode node : list) {
      if (node.get("key").asText().equals(key)) {
        return node;
      }
    }
    throw new AssertionError(key + " is not in " + list);
  }

  static List<String> keysOf(JsonNode list) {
    List<String> keys = new ArrayList<>();
    list.forEach(node -> keys.add(node.get("key").asText()));
    return keys;
  }

  @Test
  void aFairQueuesPageShowsItsKeysWithMostJobsWaitingAndLeased() {
    QueueName queue = aShopsFairQueueOfEmails();
    String reader = RoomFixtures.token(admin, "shop", "[\"read\"]", 0);

    JsonNode keys = admin.as(reader).get(pathOf(queue) + "/fairness").json();

    assertThat(keys.get("fair").asBoolean()).isTrue();
    assertThat(keys.get("keys_waiting").asLong()).isEqualTo(3);
    assertThat(keys.get("keys_leased").asLong()).isEqualTo(1);
    assertThat(keys.get("waiting").asLong()).isEqualTo(10);
    assertThat(keys.get("limit").asInt()).isEqualTo(20);
    assertThat(keysOf(keys.get("by_waiting"))).containsExactly("acme", "globex", "");
    assertThat(keysOf(keys.get("by_leased"))).containsExactly("initech");

    JsonNode acme = keyIn(keys.get("by_waiting"), "acme");
    assertThat(acme.get("waiting").asLong()).isEqualTo(6);
    assertThat(acme.get("share_percent").asDouble()).isEqualTo(60.0);
    assertThat(acme.get("paused").asBoolean()).isFalse();
    assertThat(acme.get("effective").get("weight").asInt()).isEqualTo(3);
    assertThat(acme.get("effective").get("concurrency").asInt()).isEqualTo(2);

    JsonNode globex = keyIn(keys.get("by_waiting"), "globex");
    assertThat(globex.get("share_percent").asDouble()).isEqualTo(30.0);
    assertThat(globex.get("paused").asBoolean()).isTrue();

    JsonNode initech = keyIn(keys.get("by_leased"), "initech");
    assertThat(initech.get("count").asLong()).isEqualTo(1);
    assertThat(initech.get("leased").asLong()).isEqualTo(1);
    assertThat(initech.get("share_percent").asDouble()).isZero();
  }

  @Test
  void jobsWithoutAKeyAreShownUnderTheUnnamedKeyWithTheQueuesKeySettings() {
    QueueName queue = aShopsFairQueueOfEmails();

    JsonNode keys = admin.get(pathOf(queue) + "/fairness").json();

    JsonNode unnamed = keyIn(keys.get("by_waiting"), "");
    assertThat(unnamed.get("waiting").asLong()).isEqualTo(1);
    // Every key with jobs leased is listed, so the unnamed key's none is known.
    assertThat(unnamed.get("leased").asLong()).isZero();
    assertThat(unnamed.get("share_percent").asDouble()).isEqualTo(10.0);
    assertThat(unnamed.get("paused").asBoolean()).isFalse();
    assertThat(unnamed.get("effective").get("weight").asInt()).isEqualTo(1);
    assertThat(unnamed.get("effective").get("concurrency").asInt()).isEqualTo(2);
    assertThat(unnamed.get("effective").get("rate_period_ms").asLong()).isEqualTo(1000);
  }

  @Test
  void theListsHoldAtMostTheKeysAskedFor() {
    QueueName queue = aShopsFairQueueOfEmails();

    JsonNode keys = admin.get(pathOf(queue) + "/fairness?limit=1").json();

    assertThat(keysOf(keys.get("by_waiting"))).containsExactly("acme");
    assertThat(keys.get("keys_waiting").asLong()).isEqualTo(3);
    // Held by the paused key the list leaves out: not counted, so acme's share is of 7.
    assertThat(keys.get("waiting").asLong()).isEqualTo(7);
  }

  @Test
  void aQueueThatIsNotFairSaysSoAndNothingElse() {
    QueueName queue = aShopsPlainQueueOfOrders();

    JsonNode keys = admin.get(pathOf(queue) + "/fairness").json();

    List<String> fields = new ArrayList<>();
    keys.fieldNames().forEachRemaining(fields::add);
    assertThat(fields).containsExactly("queue", "fair");
    assertThat(keys.get("fair").asBoolean()).isFalse();
  }

  @Test
  void aLimitOutOfBoundsAndAnUnknownQueueAreRefused() {
    QueueName queue = aShopsFairQueueOfEmails();

    for (String limit : List.of("0", "101", "many")) {
      Reply reply = admin.get(pathOf(queue) + "/fairness?limit=" + limit);
      DashboardApiTest.assertRefused(reply, 400, "invalid_field", "limit");
    }
    Reply unknown = admin.get("/v1/queues/shop/" + RoomFixtures.name("nothing") + "/fairness");
    DashboardApiTest.assertRefused(unknown, 404, "not_found", null);
  }

  @Test
  void theMetricsCountTheKeysOfFairQueuesOnly() {
    QueueName fair = aShopsFairQueueOfEmails();
    QueueName plain = aShopsPlainQueueOfOrders();

    String metrics = admin.as(null).get("/metrics").text();

    String label = "queue=\"" + fair + "\"";
    assertThat(sample(metrics, "lineup_queue_keys_waiting", label)).isEqualTo(3);
    assertThat(sample(metrics, "lineup_queue_keys_leased", label)).isEqualTo(1);
    assertThat(metrics).doesNotContain("lineup_queue_keys_waiting{queue=\"" + plain + "\"");
  }
}
