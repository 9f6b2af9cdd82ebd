package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lineup.core.internal.store.RedisGateway;
import io.lineup.core.internal.store.RedisStore;
import io.lineup.core.model.QueueName;
import io.lineup.redis.RedisProcess;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Publishes that name no durability wait for their queue's first settings read in arrival order;
 * one arriving while that line is being sent must not overtake it.
 */
class DurabilityDefaultsTest {
  private static RedisProcess redis;
  private static RedisStore store;

  @BeforeAll
  static void startRedis() throws IOException {
    redis = RedisProcess.builder().build().start();
    LineupOptions options = LineupOptions.builder(redis.uri()).build();
    store =
        new RedisStore(
            new RedisGateway(
                options.redisUri(),
                options.commandTimeout(),
                options.maxWaitingConnections(),
                options.latencyListener() == null ? null : options.latencyListener()::record),
            options.timeSource()::scriptArgument);
  }

  @AfterAll
  static void stopRedis() {
    if (store != null) {
      store.close();
    }
    if (redis != null) {
      redis.close();
    }
  }

  @Test
  void aPublishArrivingWhileTheWaitingLineIsSentGoesAfterAllOfIt() {
    QueueName queue = aFreshQueue();
    DurabilityDefaults defaults = new DurabilityDefaults(store);
    List<String> sent = Collections.synchronizedList(new ArrayList<>());
    // Runs the send of the waiting line only when the test says so, on the test's thread.
    ConcurrentLinkedQueue<Runnable> afterRead = new ConcurrentLinkedQueue<>();
    List<Thread> late = new ArrayList<>();

    CompletableFuture<Integer> first =
        defaults.inOrder(
            queue,
            replicas -> {
              sent.add("first");
              // A publish that comes while the line is being sent, from another thread.
              Thread latecomer =
                  Thread.ofPlatform()
                      .start(() -> defaults.inOrder(queue, sending(sent, "late"), Runnable::run));
              late.add(latecomer);
              await()
                  .atMost(Duration.ofSeconds(10))
                  .until(() ->
                      latecomer.getState() == Thread.State.BLOCKED
                          || latecomer.getState() == Thread.State.TERMINATED);
              return CompletableFuture.completedFuture(replicas);
            },
            afterRead::add);
    CompletableFuture<Integer> second =
        defaults.inOrder(queue, sending(sent, "second"), afterRead::add);
    await().atMost(Duration.ofSeconds(10)).until(() -> !afterRead.isEmpty());
    afterRead.poll().run();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> late.get(0).getState() == Thread.State.TERMINATED);

    assertThat(first.join()).isZero();
    assertThat(second.join()).isZero();
    assertThat(sent).containsExactly("first", "second", "late");
  }

  private static java.util.function.IntFunction<CompletableFuture<Integer>> sending(
      List<String> sent, String label) {
    return replicas -> {
      sent.add(label);
      return CompletableFuture.completedFuture(replicas);
    };
  }
}
