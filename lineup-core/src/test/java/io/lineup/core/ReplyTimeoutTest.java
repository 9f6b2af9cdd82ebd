package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lineup.core.model.QueueName;
import io.lineup.core.model.RedisUnavailableException;
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
    try (Lineup lineup = anEngineWithTheShortTimeout();
        ExecutorService virtual = Executors.newVirtualThreadPerTaskExecutor()) {
      // On a busy machine even an idle Redis's answer can take longer than the short timeout:
      // tried until one comes in time, since only the busy Redis below is the test (issue 49).
      await()
          .atMost(Duration.ofSeconds(60))
          .ignoreExceptions()
          .until(() -> lineup.publish(queue, aJob("registers the queue")).created());
      Thread spin = BusyRedis.keepBusy(redis.process(), Duration.ofSeconds(3));

      Future<Long> fromVirtual = virtual.submit(() -> timeToFail(() -> lineup.stats(queue)));
      long fromPlatform = timeToFail(() -> lineup.publish(queue, aJob("not answered")));
      long fromVirtualMillis = fromVirtual.get();
      // Both failed as unavailable while Redis was still busy (it answers only after 3 s, and a
      // call that waited for it would have succeeded), after at least the command timeout. How
      // soon after it a busy machine ran them is not the engine's decision (issue 49).
      assertThat(spin.isAlive()).as("Redis still busy when both calls had failed").isTrue();
      spin.join();

      assertThat(fromPlatform).isGreaterThanOrEqualTo(TIMEOUT.toMillis());
      assertThat(fromVirtualMillis).isGreaterThanOrEqualTo(TIMEOUT.toMillis());
      // Once Redis answers again, so does the engine.
      await()
          .atMost(Duration.ofSeconds(60))
          .ignoreExceptionsInstanceOf(RedisUnavailableException.class)
          .until(() -> lineup.publish(queue, aJob("answered")).created());
    }
  }

  /**
   * An engine whose calls time out after {@link #TIMEOUT}, connected once Redis answers in time.
   */
  private static Lineup anEngineWithTheShortTimeout() {
    return await()
        .atMost(Duration.ofSeconds(60))
        .ignoreExceptionsInstanceOf(RedisUnavailableException.class)
        .until(
            () -> Fixtures.anEngine(redis, b -> b.maintenance(false).commandTimeout(TIMEOUT)),
            engine -> engine != null);
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
