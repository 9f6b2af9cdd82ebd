package io.lineup.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

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
  private static final long BUSY_MS = 50;

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
      for (int round = 0; round < 10; round++) {
        // Redis is busy when the pop and then the unblock of a 1 ms wait reach it, so it may read
        // the unblock first, when the pop is not blocked yet; the wait must still end on time
        // rather than at the pop's backstop timeout (over a second).
        var script =
            busy.async().eval(BUSY_SCRIPT, ScriptOutputType.INTEGER, new String[0], "" + BUSY_MS);
        TimeUnit.MILLISECONDS.sleep(5);
        long start = System.nanoTime();
        boolean woken = gateway.waiter().await(wakeKey, 1_000);
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        script.get(5, TimeUnit.SECONDS);

        assertThat(woken).isFalse();
        assertThat(tookMs).as("round %d", round).isLessThan(BUSY_MS + 400);
      }
    } finally {
      client.shutdown();
    }
  }
}
