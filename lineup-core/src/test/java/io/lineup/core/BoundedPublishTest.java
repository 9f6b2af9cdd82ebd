package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lineup.core.model.JobInfo;
import io.lineup.core.model.PublishResult;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.RedisUnavailableException;
import io.lineup.testing.BusyRedis;
import io.lineup.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link Lineup#publishAllBounded}: never blocks its caller, not even for a queue the engine has
 * not met yet, and fails once Redis has not answered within the command timeout, as a blocking
 * publish would; with Redis answering it publishes as {@link Lineup#publishAll} does.
 */
class BoundedPublishTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  @Test
  void aBoundedPublishIsStoredAndAnsweredInOrder() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = Fixtures.anEngine(redis, b -> b.maintenance(false))) {
      List<PublishResult> results =
          lineup.publishAllBounded(queue, List.of(aJob("a").id("one"), aJob("b").id("two"))).join();

      assertThat(results).extracting(PublishResult::id).containsExactly("one", "two");
      assertThat(lineup.get(queue, "two")).map(JobInfo::position).contains(1L);
      assertThat(lineup.queues()).as("the queue is registered").contains(queue);
    }
  }

  @Test
  void aBoundedPublishToAQueueNeverSeenReturnsAtOnceWhileRedisStallsAndFailsAfterTheTimeout()
      throws Exception {
    QueueName queue = aFreshQueue();
    try (Lineup lineup =
        Fixtures.anEngine(
            redis, b -> b.maintenance(false).commandTimeout(Duration.ofMillis(500)))) {
      lineup.publish(aFreshQueue(), aJob("connects and loads the scripts"));
      Thread spin = BusyRedis.keepBusy(redis.process(), Duration.ofSeconds(2));

      // A blocking step (the queue's registration, a wait for a reply) would throw here after
      // the command timeout instead of returning a future.
      CompletableFuture<List<PublishResult>> bounded =
          lineup.publishAllBounded(queue, List.of(aJob("x").id("stalled")));
      boolean doneAtReturn = bounded.isDone();

      assertThatThrownBy(bounded::join)
          .isInstanceOf(CompletionException.class)
          .hasCauseInstanceOf(RedisUnavailableException.class);
      assertThat(doneAtReturn).as("returned before Redis answered").isFalse();
      spin.join();
    }
  }
}
