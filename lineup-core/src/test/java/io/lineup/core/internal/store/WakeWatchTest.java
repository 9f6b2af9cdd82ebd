package io.lineup.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lineup.testing.RedisServerExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A consumer's waits, one after another, share one blocked pop and lose no wake-up token. */
class WakeWatchTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  private RedisClient client;
  private StatefulRedisConnection<String, String> connection;
  private RedisCommands<String, String> inspect;
  private RedisGateway gateway;
  private String wakeKey;

  @BeforeEach
  void connect() {
    client = RedisClient.create(redis.uri());
    connection = client.connect();
    inspect = connection.sync();
    gateway = new RedisGateway(redis.uri(), Duration.ofSeconds(5), 8, null);
    wakeKey = "lu:{" + RedisServerExtension.uniqueName("ns") + "/q}:wake";
    inspect.configResetstat();
  }

  @AfterEach
  void disconnect() {
    gateway.close();
    connection.close();
    client.shutdown();
  }

  @Test
  void waitsThatRunOutLeaveTheirPopBlockedAndTheNextWaitGoesOnWithIt() throws Exception {
    try (WakeWatch watch = watch()) {
      for (int i = 0; i < 20; i++) {
        assertThat(watch.await(2_000)).as("wait %d", i).isFalse();
      }
      await().atMost(Duration.ofSeconds(5)).until(() -> blockedClients() == 1);
      assertThat(commandCalls("blpop")).isEqualTo(1);
      assertThat(commandCalls("client|unblock")).isZero();

      // The token reaches the pop while no wait is on (then it is put back and popped again by
      // the next wait) or during the next wait: either way that wait gets it.
      inspect.rpush(wakeKey, "1");
      assertThat(watch.await(5_000_000)).isTrue();
    }
    assertThat(inspect.llen(wakeKey)).isZero();
  }

  @Test
  void aTokenTakenWhileNoWaitIsOnIsPutBackForTheOtherConsumers() throws Exception {
    try (WakeWatch watch = watch()) {
      assertThat(watch.await(2_000)).isFalse();
      // The pop the wait left on reaches Redis on its own time; a busy machine can ask first.
      await().atMost(Duration.ofSeconds(5)).until(() -> blockedClients() == 1);

      inspect.rpush(wakeKey, "1");

      await().atMost(Duration.ofSeconds(5)).until(() -> inspect.llen(wakeKey) == 1);
      assertThat(blockedClients()).isZero();
      // The consumer's next wait finds the token it put back.
      assertThat(watch.await(5_000_000)).isTrue();
      assertThat(inspect.llen(wakeKey)).isZero();
    }
  }

  @Test
  void closingTheWatchEndsItsBlockedPop() throws Exception {
    WakeWatch watch = watch();
    assertThat(watch.await(2_000)).isFalse();
    await().atMost(Duration.ofSeconds(5)).until(() -> blockedClients() == 1);

    watch.close();

    await().atMost(Duration.ofSeconds(5)).until(() -> blockedClients() == 0);
    inspect.rpush(wakeKey, "1");
    assertThat(inspect.llen(wakeKey)).isEqualTo(1);
  }

  @Test
  void anInterruptedWaitEndsItsPopAndLeavesTheTokenForOthers() throws Exception {
    try (WakeWatch watch = watch()) {
      Thread.currentThread().interrupt();
      boolean interrupted = false;
      try {
        watch.await(5_000_000);
      } catch (InterruptedException expected) {
        interrupted = true;
      }
      assertThat(interrupted).isTrue();
    }
    await().atMost(Duration.ofSeconds(5)).until(() -> blockedClients() == 0);
    inspect.rpush(wakeKey, "1");
    assertThat(inspect.llen(wakeKey)).isEqualTo(1);
  }

  private WakeWatch watch() {
    return new WakeWatch(gateway.waiter(), wakeKey.getBytes(StandardCharsets.UTF_8));
  }

  private long blockedClients() {
    return Long.parseLong(infoField("clients", "blocked_clients"));
  }

  /** Calls of a command since the test began (INFO commandstats), 0 when never called. */
  private long commandCalls(String command) {
    String stats = inspect.info("commandstats");
    for (String line : stats.split("\r\n")) {
      if (line.startsWith("cmdstat_" + command + ":")) {
        String calls = line.substring(line.indexOf("calls=") + 6);
        return Long.parseLong(calls.substring(0, calls.indexOf(',')));
      }
    }
    return 0;
  }

  private String infoField(String section, String field) {
    for (String line : inspect.info(section).split("\r\n")) {
      if (line.startsWith(field + ":")) {
        return line.substring(field.length() + 1).trim();
      }
    }
    throw new IllegalStateException("INFO " + section + " has no " + field);
  }
}
