package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lineup.testing.BusyRedis;
import io.lineup.testing.RedisServerExtension;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A blocking call that Redis does not answer ends after the command timeout, on any thread. */
class ReplyTimeoutTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  private static final Duration TIMEOUT = Duration.ofMillis(400);

  @Test
  void callsFromVirtualAndPlatformThreadsFailAfterTheCommandTimeoutWhileRedisIsBusy()
      throws Exception {
    QueueName queue = aFreshQueue();
    try (Lineup lineup =
            Fixtures.anEngine(redis, b -> b.maintenance(false).commandTimeout(TIMEOUT));
        ExecutorService virtual = Executors.newVirtualThreadPerTaskExecutor()) {
      lineup.publish(queue, aJob("registers the queue"));
      Thread spin = BusyRedis.keepBusy(redis.process(), Duration.ofSeconds(3));

      long start = System.nanoTime();
      Future<Long> fromVirtual = virtual.submit(() -> timeToFail(() -> lineup.stats(queue)));
      long fromPlatform = timeToFail(() -> lineup.publish(queue, aJob("not answered")));
      long fromVirtualMillis = fromVirtual.get();
      long allMillis = (System.nanoTime() - start) / 1_000_000;
      spin.join();

      assertThat(fromPlatform).isBetween(TIMEOUT.toMillis(), TIMEOUT.toMillis() + 1000);
      assertThat(fromVirtualMillis).isBetween(TIMEOUT.toMillis(), TIMEOUT.toMillis() + 1000);
      assertThat(allMillis).isLessThan(3000);
      // Once Redis answers again, so does the engine.
      assertThat(lineup.publish(queue, aJob("answered")).created()).isTrue();
    }
  }

  /** Runs a call that must fail as unavailable; returns how long it took, in milliseconds. */
  private static long timeToFail(Runnable call) {
    long start = System.nanoTime();
    assertThatThrownBy(call::run)
        .isInstanceOf(RedisUnavailableException.class)
        .hasMessageContaining("did not answer within");
    return (System.nanoTime() - start) / 1_000_000;
  }
}
