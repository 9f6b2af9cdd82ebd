package io.lineup.server.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lineup.core.Lineup;
import io.lineup.core.LineupOptions;
import io.lineup.core.model.QueueName;
import io.lineup.testing.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a queue's full history costs in Redis: 900 second readings and 1,440 minute readings of a
 * busy queue (large counters), measured with MEMORY USAGE. docs/dashboard.md quotes the figure.
 */
class HistoryMemoryTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  /** The bound docs/dashboard.md states per queue, in bytes. */
  static final long MAX_BYTES_PER_QUEUE = 350_000;

  @Test
  void aFullDayOfHistoryOfABusyQueueStaysWithinTheStatedBytes() {
    try (Lineup lineup = Lineup.connect(LineupOptions.builder(redis.uri()).build())) {
      QueueName queue = QueueName.of("mem", "busy");
      QueueHistory history = new QueueHistory(lineup);
      long second = System.currentTimeMillis() / 1000;
      // A busy queue: seven-digit depths, ten-digit lifetime counters, rates in the thousands.
      for (long s = second - QueueHistory.FINE_SLOTS + 1; s <= second; s++) {
        history.store(queue).put("s" + s, reading(s * 1000).encode());
      }
      long minute = second / 60;
      for (long m = minute - QueueHistory.COARSE_SLOTS + 1; m <= minute; m++) {
        history.store(queue).put("m" + m, reading(m * 60_000).encode());
      }
      assertThat(history.store(queue).size())
          .isEqualTo(QueueHistory.FINE_SLOTS + QueueHistory.COARSE_SLOTS);

      RedisClient client = RedisClient.create(redis.uri());
      try (StatefulRedisConnection<String, String> connection = client.connect()) {
        String key = "lu:rec:{history2:" + QueueHistory.digest(queue.toString()) + "}";
        Long bytes = connection.sync().memoryUsage(key);
        System.out.printf(
            "history of one queue: %d readings, %d bytes (MEMORY USAGE)%n",
            QueueHistory.FINE_SLOTS + QueueHistory.COARSE_SLOTS, bytes);
        assertThat(bytes).isPositive().isLessThanOrEqualTo(MAX_BYTES_PER_QUEUE);
      } finally {
        client.shutdown();
      }
    }
  }

  private static QueueSample reading(long at) {
    return new QueueSample(
        at,
        1_234_567,
        2_345_678,
        12_345,
        98_765,
        9_876_543_210L,
        9_876_500_000L,
        12_345_678,
        9_876_512_345L,
        3_600_000,
        4_321.98,
        4_320.55,
        12.34);
  }
}
