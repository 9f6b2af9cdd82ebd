package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.redis.RedisProcess;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A Redis at its memory limit refuses publishes with a typed failure and keeps what it had. */
class RedisOutOfMemoryTest {
  @Test
  void publishesAtTheMemoryLimitFailAsOutOfMemoryAndNothingIsHalfWritten() throws IOException {
    try (RedisProcess redis =
            RedisProcess.builder().setting("maxmemory-policy", "noeviction").build().start();
        Lineup lineup =
            Lineup.connect(LineupOptions.builder(redis.uri()).maintenance(false).build())) {
      QueueName queue = aFreshQueue();
      lineup.publish(queue, NewJob.ofText("warm-up"));
      long used = usedMemory(redis);
      redis.command("CONFIG SET maxmemory " + (used + 256 * 1024));

      byte[] payload = new byte[16 * 1024];
      int published = 1;
      RedisOutOfMemoryException refused = null;
      for (int i = 0; i < 200 && refused == null; i++) {
        try {
          lineup.publishAll(queue, List.of(NewJob.of(payload), NewJob.of(payload)));
          published += 2;
        } catch (RedisOutOfMemoryException e) {
          refused = e;
        }
      }

      assertThat(refused).as("a publish past maxmemory is refused as out of memory").isNotNull();
      assertThat(lineup.stats(queue).ready())
          .as("every job published before the refusal is there, none of the refused batch")
          .isEqualTo(published);

      redis.command("CONFIG SET maxmemory 0");
      assertThat(lineup.publish(queue, NewJob.ofText("after")).created()).isTrue();
      assertThat(lineup.lease(queue, 1, Duration.ZERO).jobs()).hasSize(1);
    }
  }

  private static long usedMemory(RedisProcess redis) throws IOException {
    for (String line : redis.command("INFO memory").split("\r?\n")) {
      if (line.startsWith("used_memory:")) {
        return Long.parseLong(line.substring("used_memory:".length()).trim());
      }
    }
    throw new AssertionError("no used_memory in INFO");
  }
}
