package io.lineup.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lineup.redis.RedisProcess;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@link BenchRedis} against a redis-server of the test's own that answers {@code DEBUG}. */
class BenchRedisTest {
  /** One more member than a table of 2^17 buckets holds makes Redis grow it to 2^18. */
  private static final int PAST_A_POWER_OF_TWO = (1 << 17) + 1;

  private static RedisProcess redis;
  private static RedisClient client;
  private static StatefulRedisConnection<String, String> connection;

  @BeforeAll
  static void startRedis() {
    redis = RedisProcess.builder().setting("enable-debug-command", "local").build().start();
    client = RedisClient.create(redis.uri());
    connection = client.connect(StringCodec.UTF8);
  }

  @AfterAll
  static void stopRedis() {
    connection.close();
    client.shutdown();
    redis.close();
  }

  @Test
  void settlingASortedSetThatJustGrewFinishesTheMoveOfItsMemberTable() {
    String key = "line";
    fillSortedSet(key, PAST_A_POWER_OF_TWO + 10);
    // The ten inserts after the growth move at most twenty of the old table's 131,072 buckets.
    assertThat(memberTableStats(key)).contains("Hash table 1");

    try (BenchRedis bench = BenchRedis.open(redis.uri(), false)) {
      long lookups = bench.settleSortedSet(key.getBytes(StandardCharsets.UTF_8));

      assertThat(lookups).isEqualTo(PAST_A_POWER_OF_TWO + 10);
    }
    assertThat(memberTableStats(key)).doesNotContain("Hash table 1").contains("table size: 262144");
    assertThat(connection.sync().zcard(key)).isEqualTo(PAST_A_POWER_OF_TWO + 10);
  }

  private static void fillSortedSet(String key, int members) {
    RedisCommands<String, String> sync = connection.sync();
    List<ScoredValue<String>> batch = new ArrayList<>();
    for (int member = 1; member <= members; member++) {
      batch.add(ScoredValue.just(member, "job-" + member));
      if (batch.size() == 10_000 || member == members) {
        @SuppressWarnings("unchecked")
        ScoredValue<String>[] values = batch.toArray(new ScoredValue[0]);
        sync.zadd(key, values);
        batch.clear();
      }
    }
  }

  /** {@code DEBUG HTSTATS-KEY}: lists "Hash table 1" while the set's member table is moving. */
  private static String memberTableStats(String key) {
    return connection
        .sync()
        .dispatch(
            CommandType.DEBUG,
            new StatusOutput<>(StringCodec.UTF8),
            new CommandArgs<>(StringCodec.UTF8).add("HTSTATS-KEY").addKey(key));
  }
}
