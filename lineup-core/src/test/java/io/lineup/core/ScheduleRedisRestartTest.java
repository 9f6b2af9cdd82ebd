package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lineup.core.model.MissedTicks;
import io.lineup.core.model.PeekedJob;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.ScheduleSpec;
import io.lineup.testing.RedisServerExtension;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Redis restarts while a schedule ticks: its drivers try again until Redis is back, then go on from
 * where Redis left the schedule (the append-only file kept it). Ticks missed meanwhile follow the
 * schedule's policy; under {@link MissedTicks#CATCH_UP} every tick gets its job, once.
 */
class ScheduleRedisRestartTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withAppendOnlyFile();

  static final long EVERY_MS = 100;

  @Test
  void aScheduleTickingThroughARedisRestartResumesWithEveryTickPublishedOnce() {
    QueueName queue = aFreshQueue();
    try (Lineup first = Fixtures.anEngine(redis);
        Lineup second = Fixtures.anEngine(redis)) {
      first
          .schedules()
          .upsert(
              queue,
              ScheduleSpec.every("beat", Duration.ofMillis(EVERY_MS))
                  .missed(MissedTicks.CATCH_UP)
                  .historySize(1000)
                  .build());
      await().atMost(Duration.ofSeconds(30)).until(() -> runs(first, queue) >= 10);

      redis.process().restart();

      long afterRestart =
          await()
              .atMost(Duration.ofSeconds(60))
              .until(
                  () -> {
                    try {
                      return runs(second, queue);
                    } catch (RuntimeException unreachable) {
                      return -1L;
                    }
                  },
                  runs -> runs >= 0);
      await().atMost(Duration.ofSeconds(60)).until(() -> runs(second, queue) >= afterRestart + 10);
      first.schedules().pause(queue, "beat");

      long runs = runs(first, queue);
      // A tick fired ahead of its time waits as a delayed job until its tick.
      await().atMost(Duration.ofSeconds(10)).until(() -> first.stats(queue).delayed() == 0);
      // Sorted by tick: a tick caught up after the restart may enter the line after a later one.
      List<String> ids =
          first.peek(queue, 0, 1000).stream()
              .map(PeekedJob::id)
              .sorted(Comparator.comparingLong(id -> Long.parseLong(id.substring(11))))
              .toList();
      assertThat(ids).hasSize((int) runs);
      long firstTick = Long.parseLong(ids.get(0).substring("sched:beat:".length()));
      assertThat(ids)
          .containsExactlyElementsOf(
              LongStream.range(0, runs)
                  .mapToObj(k -> "sched:beat:" + (firstTick + k * EVERY_MS))
                  .toList());
    }
  }

  private static long runs(Lineup lineup, QueueName queue) {
    return lineup.schedules().get(queue, "beat").orElseThrow().runs();
  }
}
