package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.someJobs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lineup.core.model.NewJob;
import io.lineup.core.model.QueueName;
import io.lineup.redis.RedisProcess;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A Redis that persists nothing (no append-only file, no snapshots) loses every job when it
 * restarts; the engine reconnects and the queue starts empty. The guarantees table's row for it.
 */
class RedisRestartWithoutPersistenceTest {
  @Test
  void aRestartOfARedisThatPersistsNothingLosesEveryJobAndTheEngineCarriesOn() {
    try (RedisProcess redis = RedisProcess.builder().build().start();
        Lineup lineup =
            Lineup.connect(LineupOptions.builder(redis.uri()).maintenance(false).build())) {
      QueueName queue = aFreshQueue();
      lineup.publishAll(queue, someJobs(100, "job-"));
      assertThat(lineup.stats(queue).ready()).isEqualTo(100);
      assertThat(lineup.redisInfo().persistsNothing()).isTrue();

      redis.restart();

      await()
          .atMost(Duration.ofSeconds(20))
          .ignoreExceptions()
          .untilAsserted(() -> assertThat(lineup.stats(queue).ready()).isZero());
      assertThat(lineup.publish(queue, NewJob.ofText("after")).created()).isTrue();
    }
  }
}
