package io.lineup.core;

import static io.lineup.core.Fixtures.aDelayedJob;
import static io.lineup.core.Fixtures.aFreshQueue;
import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.testing.RedisServerExtension;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class DelayedPunctualityTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  @Test
  void aThirtyMinuteDelayIsReleasedAtThirtyMinutesOnTheTestClockNotOneMillisecondBefore() {
    ManualClock clock = new ManualClock(Instant.parse("2030-06-01T12:00:00Z"));
    QueueName queue = aFreshQueue();
    try (Lineup lineup = Fixtures.anEngine(redis, options -> options.timeSource(clock))) {
      PublishResult order =
          lineup.publish(queue, aDelayedJob("close unpaid order 42", Duration.ofMinutes(30)));
      assertThat(order.dueAt()).isEqualTo(Instant.parse("2030-06-01T12:30:00Z"));

      clock.advance(Duration.ofMinutes(30).minusMillis(1));
      Leases early = lineup.lease(queue, 1, Duration.ZERO);
      assertThat(early.jobs()).isEmpty();
      assertThat(early.retryAfter()).isEqualTo(Duration.ofMillis(1));

      assertThat(lineup.get(queue, order.id()).orElseThrow().state()).isEqualTo(JobState.DELAYED);

      clock.advance(Duration.ofMillis(1));
      JobInfo due = lineup.get(queue, order.id()).orElseThrow();
      assertThat(due.state()).as("reads READY as soon as it is due").isEqualTo(JobState.READY);
      assertThat(due.position()).isZero();
      assertThat(lineup.lease(queue, 1, Duration.ZERO).jobs())
          .extracting(LeasedJob::id)
          .containsExactly(order.id());
    }
  }

  @Test
  void aWaitingConsumerReceivesEachDelayedJobWithinMillisecondsOfItsDueTime() throws Exception {
    QueueName queue = aFreshQueue();
    int jobs = 20;
    try (Lineup lineup = Fixtures.anEngine(redis)) {
      for (int i = 0; i < jobs; i++) {
        lineup.publish(queue, aDelayedJob("tick " + i, Duration.ofMillis(300 + 47L * i)));
      }
      List<Long> lateness = new ArrayList<>();
      while (lateness.size() < jobs) {
        for (LeasedJob job : lineup.lease(queue, 1, Duration.ofSeconds(5)).jobs()) {
          long late = System.currentTimeMillis() - job.dueAt().toEpochMilli();
          assertThat(job.leasedAt())
              .as("never leased before it is due")
              .isAfterOrEqualTo(job.dueAt());
          lateness.add(late);
          lineup.ack(job);
        }
      }
      List<Long> sorted = lateness.stream().sorted().toList();
      System.out.printf(
          "Delayed-job lateness over %d jobs (ms): p50=%d max=%d all=%s%n",
          jobs, sorted.get(jobs / 2), sorted.get(jobs - 1), lateness);
      // Redis's own blocking timeout fires only every ~100 ms; a median of a few ms shows the
      // waiter's local timer is what ends the wait.
      assertThat(sorted.get(jobs / 2)).isLessThan(25);
    }
  }
}
