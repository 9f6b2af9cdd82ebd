package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lineup.core.model.DeadJob;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.JobState;
import io.lineup.core.model.LeaseLostException;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.QueueName;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Leases that end: redelivery after the time-to-run, the background reclaimer, heartbeats. Runs on
 * both topologies ({@link LeaseExpiryOnStandaloneTest}, {@link LeaseExpiryOnClusterTest}).
 */
abstract class LeaseExpiryTest extends EngineSuite {
  @Test
  void aJobWhoseConsumerVanishesIsDeliveredAgainAfterItsTimeToRunThenDeadLetteredThenRespawned() {
    ManualClock clock = new ManualClock(Instant.parse("2030-01-01T00:00:00Z"));
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine(options -> options.timeSource(clock))) {
      String id =
          lineup
              .publish(queue, aJob("charge card").timeToRun(Duration.ofSeconds(10)).maxAttempts(2))
              .id();

      LeasedJob first = lineup.lease(queue, 1, Duration.ZERO).jobs().get(0);
      assertThat(first.attempt()).isEqualTo(1);
      clock.advance(Duration.ofMillis(9_999));
      assertThat(lineup.lease(queue, 1, Duration.ZERO).jobs())
          .as("still leased at 9.999 s")
          .isEmpty();

      clock.advance(Duration.ofMillis(2));
      LeasedJob second = lineup.lease(queue, 1, Duration.ZERO).jobs().get(0);
      assertThat(second.id()).isEqualTo(id);
      assertThat(second.attempt()).isEqualTo(2);
      assertThatThrownBy(() -> lineup.ack(first))
          .isInstanceOfSatisfying(
              LeaseLostException.class,
              lost -> assertThat(lost.reason()).isEqualTo(LeaseLostException.Reason.LEASED_AGAIN));

      clock.advance(Duration.ofSeconds(11));
      assertThat(lineup.lease(queue, 1, Duration.ZERO).jobs()).as("out of attempts").isEmpty();
      JobInfo dead = lineup.get(queue, id).orElseThrow();
      assertThat(dead.state()).isEqualTo(JobState.DEAD);
      assertThat(dead.attempts()).isEqualTo(2);
      assertThat(dead.lastError()).contains("lease expired");
      assertThat(lineup.deadLetters(queue, 0, 10).jobs())
          .extracting(DeadJob::id)
          .containsExactly(id);

      assertThat(lineup.respawnOldest(queue, Long.MAX_VALUE, null)).isEqualTo(1);
      LeasedJob reborn = lineup.lease(queue, 1, Duration.ZERO).jobs().get(0);
      assertThat(reborn.attempt()).isEqualTo(1);
      lineup.ack(reborn);
      assertThat(lineup.stats(queue).dead()).isZero();
    }
  }

  @Test
  void aJobWhoseLeaseRanOutIsNextInLineAheadOfLaterJobsOfItsPriorityButNotOfHigherOnes() {
    ManualClock clock = new ManualClock(Instant.parse("2030-01-01T00:00:00Z"));
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine(options -> options.timeSource(clock))) {
      Duration ttr = Duration.ofSeconds(10);
      String first = lineup.publish(queue, aJob("first").priority(3).timeToRun(ttr)).id();
      String own =
          lineup.publish(queue, aJob("own id").id("own-1").priority(3).timeToRun(ttr)).id();
      String second = lineup.publish(queue, aJob("second").priority(3)).id();
      assertThat(lineup.lease(queue, 2, Duration.ZERO).jobs())
          .as("leased by a consumer that goes away")
          .extracting(LeasedJob::id)
          .containsExactly(first, own);
      String later = lineup.publish(queue, aJob("later").priority(3)).id();
      String urgent = lineup.publish(queue, aJob("urgent").priority(9)).id();

      clock.advance(ttr.plusMillis(1));
      List<LeasedJob> next = lineup.lease(queue, 10, Duration.ZERO).jobs();
      assertThat(next)
          .extracting(LeasedJob::id)
          .as("the higher priority first, then the reclaimed jobs in their original order")
          .containsExactly(urgent, first, own, second, later);
      assertThat(next).extracting(LeasedJob::attempt).containsExactly(1, 2, 2, 1, 1);

      lineup.ack(next.get(0));
      lineup.ack(next.get(2));
      String last = lineup.publish(queue, aJob("last").priority(3)).id();
      clock.advance(ttr.plusMillis(1));
      assertThat(lineup.lease(queue, 10, Duration.ZERO).jobs())
          .as("a second time, ahead of a job published while it was leased")
          .extracting(LeasedJob::id)
          .containsExactly(first, last);
    }
  }

  @Test
  void theBackgroundReclaimerReturnsAnExpiredLeaseWithoutAnyConsumerAsking() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine()) {
      String id = lineup.publish(queue, aJob("x").timeToRun(Duration.ofMillis(200))).id();
      lineup.lease(queue, 1, Duration.ZERO);
      org.awaitility.Awaitility.await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> lineup.get(queue, id).orElseThrow().state() != JobState.LEASED);
      JobInfo info = lineup.get(queue, id).orElseThrow();
      assertThat(info.state()).isIn(JobState.DELAYED, JobState.READY);
      assertThat(info.attempts()).isEqualTo(1);
      assertThat(lineup.stats(queue).counters()).containsEntry("retried", 1L);
    }
  }

  @Test
  void aHeartbeatKeepsTheLeaseAndAStaleTokenCannotExtend() {
    ManualClock clock = new ManualClock(Instant.parse("2030-01-01T00:00:00Z"));
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine(options -> options.timeSource(clock))) {
      lineup.publish(queue, aJob("long task").timeToRun(Duration.ofSeconds(5)));
      LeasedJob job = lineup.lease(queue, 1, Duration.ZERO).jobs().get(0);
      for (int beat = 0; beat < 5; beat++) {
        clock.advance(Duration.ofSeconds(4));
        Instant deadline = lineup.extend(job);
        assertThat(deadline).isEqualTo(clock.now().plusSeconds(5));
      }
      assertThat(lineup.lease(queue, 1, Duration.ZERO).jobs()).isEmpty();
      lineup.ack(job);
      assertThatThrownBy(() -> lineup.extend(job)).isInstanceOf(LeaseLostException.class);
      assertThat(List.of(lineup.get(queue, job.id()).orElseThrow().state()))
          .containsExactly(JobState.DONE);
    }
  }
}
