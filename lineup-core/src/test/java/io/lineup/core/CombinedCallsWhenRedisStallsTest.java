package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lineup.core.model.PublishResult;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.RedisUnavailableException;
import io.lineup.testing.BusyRedis;
import io.lineup.testing.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Combined calls when Redis stalls or goes away: a publish whose caller gave up is not sent, and
 * every publish waiting for a combined call fails promptly when Redis is down. These tests keep a
 * standalone Redis busy or stop it, so they run on that topology only; the rest of the behaviour is
 * in {@link CombinedCallsTest}.
 */
class CombinedCallsWhenRedisStallsTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  @Test
  void aPublishWhoseCallerStoppedWaitingIsNeverSent() throws Exception {
    QueueName queue = aFreshQueue();
    try (Lineup lineup =
        anEngineWithoutBackgroundLoops(b -> b.commandTimeout(Duration.ofMillis(500)))) {
      lineup.publish(queue, aJob("registers the queue"));
      // Redis runs a two-second script, so the next two publishes stay in flight and a third
      // waits for them until its caller gives up.
      Thread spin = BusyRedis.keepBusy(redis.process(), Duration.ofSeconds(2));
      CompletableFuture<PublishResult> first = lineup.publishAsync(queue, aJob("a").id("first"));
      CompletableFuture<PublishResult> second = lineup.publishAsync(queue, aJob("b").id("second"));
      assertThatThrownBy(() -> lineup.publish(queue, aJob("c").id("given-up")))
          .isInstanceOf(RedisUnavailableException.class);
      spin.join();

      assertThat(first.join().created()).isTrue();
      assertThat(second.join().created()).isTrue();
      lineup.publish(queue, aJob("d").id("after"));
      assertThat(lineup.get(queue, "given-up")).isEmpty();
      assertThat(lineup.stats(queue).ready()).isEqualTo(4);
    }
  }

  @Test
  void whenRedisIsDownEveryWaitingPublishFailsPromptlyAndPublishingResumesAfter() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngineWithoutBackgroundLoops(b -> b)) {
      lineup.publish(queue, aJob("registers the queue"));
      redis.process().stop();
      try {
        List<CompletableFuture<PublishResult>> publishes = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
          publishes.add(lineup.publishAsync(queue, aJob("job " + i)));
        }
        for (CompletableFuture<PublishResult> publish : publishes) {
          assertThatThrownBy(publish::join).hasCauseInstanceOf(RedisUnavailableException.class);
        }
      } finally {
        redis.process().start();
      }
      await()
          .atMost(Duration.ofSeconds(30))
          .ignoreExceptionsInstanceOf(RedisUnavailableException.class)
          .until(() -> lineup.publish(queue, aJob("after the outage")).created());
    }
  }

  private static Lineup anEngineWithoutBackgroundLoops(
      java.util.function.UnaryOperator<LineupOptions.Builder> tune) {
    return Fixtures.anEngine(redis, b -> tune.apply(b.maintenance(false)));
  }
}
