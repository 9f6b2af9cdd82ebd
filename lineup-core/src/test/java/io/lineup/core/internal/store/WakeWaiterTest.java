package io.lineup.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lineup.testing.RedisServerExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The engine's blocking wait ends on its own timer, not on Redis's coarse timeouts. */
class WakeWaiterTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  /** Keeps Redis busy for about this long, as a slow command or a loaded machine would. */
  /**
   * How long Redis stays busy each round, ms: far longer than a busy machine delays a thread, so a
   * wait that ended while the script still ran ended on its own timer, not on Redis's answer.
   */
  private static final long BUSY_MS = 1_500;

  private static final String BUSY_SCRIPT =
      """
      local function micros()
        local t = redis.call('TIME')
        return tonumber(t[1]) * 1000000 + tonumber(t[2])
      end
      local start = micros()
      while micros() - start < tonumber(ARGV[1]) * 1000 do end
      return 1
      """;

  @Test
  void aWaitWhoseTimerRunsOutBeforeRedisSawItsPopStillEndsOnTime() throws Exception {
    byte[][] wakeKey = {
      ("lu:{" + RedisServerExtension.uniqueName("ns") + "/q}:wake").getBytes(StandardCharsets.UTF_8)
    };
    RedisClient client = RedisClient.create(redis.uri());
    try (RedisGateway gateway = new RedisGateway(redis.uri(), Duration.ofSeconds(5), 8, null);
        StatefulRedisConnection<String, String> busy = client.connect()) {
      for (int round = 0; round < 3; round++) {
        // The wait takes an idle link: opening a new one needs Redis's answer, which a busy
        // Redis would hold back. A first wait opens it; the last round's comes back once its
        // unblock is done.
        assertThat(gateway.waiter().await(wakeKey, 1_000)).isFalse();
        await().atMost(Duration.ofSeconds(30)).until(() -> gateway.waiter().idleLinks() >= 1);
        // Redis is busy when the pop and then the unblock of a 1 ms wait reach it, so it may read
        // the unblock first, when the pop is not blocked yet; the wait must still end on time
        // rather than at the pop's backstop timeout (over a second).
        var script =
            busy.async().eval(BUSY_SCRIPT, ScriptOutputType.INTEGER, new String[0], "" + BUSY_MS);
        TimeUnit.MILLISECONDS.sleep(5);
        boolean woken = gateway.waiter().await(wakeKey, 1_000);
        boolean redisStillBusy = !script.isDone();
        script.get(BUSY_MS + 5_000, TimeUnit.MILLISECONDS);

        assertThat(woken).isFalse();
        // Ended while Redis was still busy: the wait did not wait for the pop's answer or for the
        // unblock (issue 49: asserted on that, not on how many ms a busy machine took).
        assertThat(redisStillBusy)
            .as("round %d: the wait ended while Redis was busy", round)
            .isTrue();
      }
    } finally {
      client.shutdown();
    }
  }
}
