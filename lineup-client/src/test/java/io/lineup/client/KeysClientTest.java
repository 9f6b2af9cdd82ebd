package io.lineup.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lineup.api.resource.FairKey;
import io.lineup.api.resource.FairKeyCounts;
import io.lineup.api.resource.LeasedJob;
import io.lineup.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The fairness keys of a fair queue through the client, against a real server on a real Redis. */
class KeysClientTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  static TestServer server;
  static LineupClient admin;

  @BeforeAll
  static void start() {
    server = TestServer.start(redis.uri());
    admin = server.adminClient();
  }

  @AfterAll
  static void stop() {
    admin.close();
    server.close();
  }

  /** A fair queue of its own. */
  static QueueName fairQueue(String prefix) {
    QueueName queue =
        QueueName.of("tenants", RedisServerExtension.uniqueName(prefix).replace(':', '-'));
    admin.configure(queue, SettingsChange.create().fair(true));
    return queue;
  }

  static void order(QueueName queue, String tenant, int number) {
    admin.publish(queue, NewJob.ofJson("{\"order\": " + number + "}").key(tenant));
  }

  @Test
  void aJobsKeyIsPublishedAndReadBack() {
    QueueName queue = fairQueue("job");
    String id = admin.publish(queue, NewJob.ofJson("{}").key("acme")).id();
    assertThat(admin.get(queue, id).key()).isEqualTo("acme");
    assertThat(admin.get(queue, admin.publish(queue, NewJob.ofJson("{}")).id()).key()).isNull();
    assertThat(admin.stats(queue).settings().fair()).isTrue();
  }

  @Test
  void theBusiestKeysAreListedAndOneKeyIsReadSetPausedAndResumed() {
    QueueName queue = fairQueue("keys");
    order(queue, "acme", 1);
    order(queue, "acme", 2);
    order(queue, "org/globex", 3);

    FairKeyCounts top = admin.keys().top(queue, KeysClient.By.WAITING, 10);
    assertThat(top.by()).isEqualTo("waiting");
    assertThat(top.keysWaiting()).isEqualTo(2);
    assertThat(top.keys())
        .containsExactly(
            new FairKeyCounts.Count("acme", 2), new FairKeyCounts.Count("org/globex", 1));

    FairKey acme =
        admin
            .keys()
            .set(
                queue,
                "acme",
                KeySettings.queueDefaults()
                    .weight(4)
                    .concurrency(2)
                    .rate(30, Duration.ofMinutes(1))
                    .maxWaiting(500));
    assertThat(acme.own()).isEqualTo(new FairKey.Settings(4, 2, 30, 60_000L, 500));
    assertThat(acme.waiting()).isEqualTo(2);
    assertThat(admin.keys().get(queue, "org/globex").waiting()).isEqualTo(1);

    assertThat(admin.keys().pause(queue, "acme").paused()).isTrue();
    assertThat(admin.keys().get(queue, "acme").own().weight()).isEqualTo(4);
    List<LeasedJob> leased = admin.lease(queue, 10, Duration.ZERO);
    assertThat(leased).hasSize(1);
    assertThat(admin.keys().top(queue, KeysClient.By.LEASED, 5).keys())
        .containsExactly(new FairKeyCounts.Count("org/globex", 1));
    assertThat(admin.keys().resume(queue, "acme").paused()).isFalse();
  }

  @Test
  void aKeysWaitingJobsAreDeleted() {
    QueueName queue = fairQueue("drop");
    order(queue, "acme", 1);
    order(queue, "acme", 2);
    order(queue, "initech", 3);
    assertThat(admin.keys().deleteWaiting(queue, "acme")).isEqualTo(2);
    assertThat(admin.keys().get(queue, "acme").waiting()).isZero();
    assertThat(admin.keys().get(queue, "initech").waiting()).isEqualTo(1);
  }

  @Test
  void publishingPastAKeysMaxWaitingThrowsWithTheKeyAndItsCounts() {
    QueueName queue = fairQueue("full");
    admin.keys().set(queue, "acme", KeySettings.queueDefaults().maxWaiting(1));
    order(queue, "acme", 1);
    assertThatThrownBy(() -> order(queue, "acme", 2))
        .isInstanceOfSatisfying(
            KeyBacklogFullException.class,
            e -> {
              assertThat(e.status()).isEqualTo(429);
              assertThat(e.code()).isEqualTo("key_backlog_full");
              assertThat(e.key()).isEqualTo("acme");
              assertThat(e.maxWaiting()).isEqualTo(1);
              assertThat(e.waiting()).isEqualTo(1);
            });
  }

  @Test
  void aBadKeyOrWeightIsRefusedNamingIt() {
    QueueName queue = fairQueue("bad");
    assertThatThrownBy(() -> order(queue, "not ok", 1))
        .isInstanceOfSatisfying(
            InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("key"));
    assertThatThrownBy(() -> admin.keys().set(queue, "acme", KeySettings.queueDefaults().weight(0)))
        .isInstanceOfSatisfying(
            InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("weight"));
    assertThatThrownBy(() -> admin.keys().top(queue, KeysClient.By.WAITING, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
