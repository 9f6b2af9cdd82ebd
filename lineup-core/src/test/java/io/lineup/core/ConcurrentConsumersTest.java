package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.Leases;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Many consumers at once: every job is acked exactly once. Runs on both topologies ({@link
 * ConcurrentConsumersOnStandaloneTest}, {@link ConcurrentConsumersOnClusterTest}).
 */
abstract class ConcurrentConsumersTest extends EngineSuite {
  @Test
  void eightConcurrentConsumersAckEveryOneOfTwentyThousandJobsExactlyOnce() throws Exception {
    int total = 20_000;
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine()) {
      List<String> published = new ArrayList<>(total);
      for (int batch = 0; batch < total / 1000; batch++) {
        List<NewJob> jobs = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
          jobs.add(aJob("job-" + (batch * 1000 + i)));
        }
        lineup.publishAll(queue, jobs).forEach(result -> published.add(result.id()));
      }
      assertThat(published).doesNotHaveDuplicates().hasSize(total);

      Map<String, AtomicInteger> acked = new ConcurrentHashMap<>();
      AtomicLong ackCount = new AtomicLong();
      try (ExecutorService consumers = Executors.newFixedThreadPool(8)) {
        List<Future<?>> running = new ArrayList<>();
        for (int c = 0; c < 8; c++) {
          running.add(
              consumers.submit(() -> {
                while (ackCount.get() < total) {
                  Leases leases = lineup.lease(queue, 50, Duration.ofMillis(200));
                  for (LeasedJob job : leases.jobs()) {
                    lineup.ack(job);
                    acked.computeIfAbsent(job.id(), id -> new AtomicInteger()).incrementAndGet();
                    ackCount.incrementAndGet();
                  }
                }
                return null;
              }));
        }
        for (Future<?> consumer : running) {
          consumer.get();
        }
      }

      assertThat(acked).hasSize(total);
      assertThat(acked.keySet()).containsExactlyInAnyOrderElementsOf(published);
      assertThat(acked.values()).allSatisfy(times -> assertThat(times.get()).isEqualTo(1));
      QueueStats stats = lineup.stats(queue);
      assertThat(stats.ready() + stats.delayed() + stats.leased() + stats.dead()).isZero();
      assertThat(stats.counters())
          .containsEntry("acked", (long) total)
          .containsEntry("leased", (long) total);
    }
  }
}
