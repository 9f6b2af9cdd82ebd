package io.lineup.server;

import static io.lineup.server.DispatchFixtures.endpoint;
import static io.lineup.server.DispatchFixtures.name;
import static io.lineup.server.DispatchFixtures.submit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Fair dispatch: an endpoint whose tasks carry keys (customers) serves the keys in turn, each under
 * its own limits, all under the endpoint's.
 */
class DispatchFairnessTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  static final String NS = "fairness";
  static Api api;

  @BeforeAll
  static void start() {
    api = server.admin();
  }

  /** A task sent for a customer, who is named in its body too so the target can tell them apart. */
  static String taskFor(String customer) {
    return "{\"key\": \"" + customer + "\", \"body\": {\"customer\": \"" + customer + "\"}}";
  }

  /**
   * A target that counts each customer's requests in flight, keeps the most seen at once per
   * customer, and answers after a short while so that requests could overlap.
   */
  static final class CustomerCounts {
    final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
    final Map<String, AtomicInteger> most = new ConcurrentHashMap<>();

    TestTarget.Answer answer(TestTarget.Seen request) {
      String customer = customerOf(request);
      int now = inFlight.computeIfAbsent(customer, c -> new AtomicInteger()).incrementAndGet();
      most.computeIfAbsent(customer, c -> new AtomicInteger()).accumulateAndGet(now, Math::max);
      try {
        // The request's service time at the target; counted out before the answer leaves, as
        // TestTarget counts its own in-flight requests.
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        inFlight.get(customer).decrementAndGet();
      }
      return TestTarget.Answer.ok("{\"ok\":true}");
    }
  }

  static String customerOf(TestTarget.Seen request) {
    String body = request.bodyText();
    int at = body.indexOf("\"customer\":\"") + "\"customer\":\"".length();
    return body.substring(at, body.indexOf('"', at));
  }

  @Test
  void oneCustomersTwentyTasksDoNotHoldAnotherCustomersTaskBeyondOneTurn() {
    TestTarget own = TestTarget.start();
    try (own) {
      CustomerCounts counts = new CustomerCounts();
      own.answering(counts::answer);
      String name = name("turns");
      String settings =
          "\"concurrency\": 4, \"fairness\": {\"enabled\": true, \"key_concurrency\": 1}";
      String ep = endpoint(api, NS, name, own.url(), settings + ", \"paused\": true");
      for (int i = 0; i < 20; i++) {
        submit(api, ep, taskFor("acme"));
      }
      submit(api, ep, taskFor("globex"));
      endpoint(api, NS, name, own.url(), settings);

      await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(50))
          .until(() -> own.count() >= 21);
      List<String> order = own.seen().stream().map(DispatchFairnessTest::customerOf).toList();
      assertThat(order.subList(0, 2)).as("order seen: %s", order).contains("globex");
      assertThat(order).filteredOn("acme"::equals).hasSize(20);
      assertThat(counts.most.get("acme").get()).as("acme's most in flight at once").isEqualTo(1);
      assertThat(counts.most.get("globex").get()).isEqualTo(1);
    }
  }

  @Test
  void aSubmitPastACustomersMostWaitingIsRefusedWith429AndOtherCustomersStillGetIn() {
    String ep =
        endpoint(
            api,
            NS,
            name("backlog"),
            "http://127.0.0.1:9",
            "\"paused\": true, \"fairness\": {\"enabled\": true, \"key_max_waiting\": 2}");
    submit(api, ep, taskFor("acme"));
    submit(api, ep, taskFor("acme"));

    Reply full = api.post(ep + "/tasks", taskFor("acme"));

    assertThat(full.status()).as(full.toString()).isEqualTo(429);
    assertThat(full.field("error")).isEqualTo("key_backlog_full");
    assertThat(full.field("key")).isEqualTo("acme");
    assertThat(full.json().path("max_waiting").asLong()).isEqualTo(2);
    assertThat(full.json().path("waiting").asLong()).isEqualTo(2);
    assertThat(api.post(ep + "/tasks", taskFor("globex")).status()).isEqualTo(202);
  }

  @Test
  void aTaskShowsItsKeyAtSubmitAndWhenReadOnFairAndOtherEndpointsAlike() {
    String fair =
        endpoint(
            api,
            NS,
            name("shown"),
            "http://127.0.0.1:9",
            "\"paused\": true, \"fairness\": {\"enabled\": true}");
    String plain = endpoint(api, NS, name("plain"), "http://127.0.0.1:9", "\"paused\": true");
    for (String ep : List.of(fair, plain)) {
      Reply submitted = api.post(ep + "/tasks", taskFor("tenant-7@eu"));
      assertThat(submitted.field("key")).as(submitted.toString()).isEqualTo("tenant-7@eu");

      JsonNode read = api.get(ep + "/tasks/" + submitted.field("id")).json();

      assertThat(read.path("key").asText()).isEqualTo("tenant-7@eu");
    }
    Reply without = api.post(plain + "/tasks", "{}");
    assertThat(without.json().path("key").isNull()).as(without.toString()).isTrue();
  }

  @Test
  void anEndpointShowsItsFairnessWithEveryDefaultFilledIn() {
    String ep =
        endpoint(
            api,
            NS,
            name("shown"),
            "http://127.0.0.1:9",
            "\"fairness\": {\"enabled\": true, \"key_rate\": 5}");

    JsonNode fairness = api.get(ep).json().path("fairness");

    assertThat(fairness.path("enabled").asBoolean()).isTrue();
    assertThat(fairness.path("key_concurrency").asInt()).isZero();
    assertThat(fairness.path("key_rate").asInt()).isEqualTo(5);
    assertThat(fairness.path("key_rate_period_ms").asLong()).isEqualTo(1000);
    assertThat(fairness.path("key_max_waiting").asInt()).isZero();
    JsonNode plain = api.get(endpoint(api, NS, name("plain"), "http://127.0.0.1:9", "")).json();
    assertThat(plain.path("fairness").path("enabled").asBoolean()).isFalse();
  }

  @Test
  void aBadKeyOrFairnessSettingIsRefusedNamingItsField() {
    String ep = endpoint(api, NS, name("checks"), "http://127.0.0.1:9", "\"paused\": true");
    record Case(String path, String body, String field) {}
    String put = "{\"base_url\": \"http://127.0.0.1:9\", \"fairness\": ";
    List<Case> cases =
        List.of(
            new Case(ep + "/tasks", "{\"key\": \"has space\"}", "key"),
            new Case(ep + "/tasks", "{\"key\": \"\"}", "key"),
            new Case(ep + "/tasks", "{\"key\": \"" + "k".repeat(129) + "\"}", "key"),
            new Case(ep + "/tasks", "{\"key\": 7}", "key"),
            new Case(ep, put + "{\"key_concurrency\": -1}}", "fairness.key_concurrency"),
            new Case(ep, put + "{\"key_rate\": 100001}}", "fairness.key_rate"),
            new Case(ep, put + "{\"key_rate_period_ms\": 5}}", "fairness.key_rate_period_ms"),
            new Case(ep, put + "{\"key_max_waiting\": 1.5}}", "fairness.key_max_waiting"),
            new Case(ep, put + "{\"enabled\": \"yes\"}}", "fairness.enabled"),
            new Case(ep, put + "{\"weight\": 2}}", "fairness.weight"),
            new Case(ep, put + "true}", "fairness"));
    for (Case c : cases) {
      Reply reply =
          c.path().equals(ep) ? api.put(c.path(), c.body()) : api.post(c.path(), c.body());
      assertThat(reply.status()).as(c.body() + " -> " + reply).isEqualTo(400);
      assertThat(reply.field("field")).as(c.body() + " -> " + reply).isEqualTo(c.field());
    }
  }
}
