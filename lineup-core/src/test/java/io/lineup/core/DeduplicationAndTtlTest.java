package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lineup.core.model.JobState;
import io.lineup.core.model.LeaseLostException;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.PublishResult;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSettings;
import io.lineup.core.model.QueueStats;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Deduplication by id and by unique key, TTL expiry wherever a job is, and retention of finished
 * records. Runs on both topologies ({@link DeduplicationAndTtlOnStandaloneTest}, {@link
 * DeduplicationAndTtlOnClusterTest}).
 */
abstract class DeduplicationAndTtlTest extends EngineSuite {
  @Test
  void publishingTheSameIdTwiceReturnsTheExistingJobAndNeverADuplicate() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine()) {
      PublishResult first = lineup.publish(queue, aJob("order 7").id("order-7"));
      PublishResult again =
          lineup.publish(queue, aJob("order 7, different payload").id("order-7").priority(9));
      assertThat(first.created()).isTrue();
      assertThat(again.created()).isFalse();
      assertThat(again.id()).isEqualTo("order-7");
      assertThat(again.state()).isEqualTo(JobState.READY);
      assertThat(lineup.stats(queue).ready()).isEqualTo(1);
      assertThat(lineup.lease(queue, 10, Duration.ZERO).jobs())
          .singleElement()
          .satisfies(job -> assertThat(job.payloadText()).isEqualTo("order 7"));

      List<PublishResult> bulk =
          lineup.publishAll(queue, List.of(aJob("a").id("dup"), aJob("b").id("dup")));
      assertThat(bulk).extracting(PublishResult::created).containsExactly(true, false);
    }
  }

  @Test
  void aUniqueKeyReturnsTheFirstJobInsideItsWindowAndAllowsANewOneAfter() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine()) {
      PublishResult first =
          lineup.publish(
              queue, aJob("remind member 5").uniqueKey("remind:5", Duration.ofMillis(500)));
      PublishResult second =
          lineup.publish(
              queue, aJob("remind member 5").uniqueKey("remind:5", Duration.ofMillis(500)));
      assertThat(second.created()).isFalse();
      assertThat(second.id()).isEqualTo(first.id());
      assertThat(lineup.stats(queue).ready()).isEqualTo(1);

      await()
          .atMost(Duration.ofSeconds(5))
          .until(() ->
              lineup
                  .publish(
                      queue, aJob("remind member 5").uniqueKey("remind:5", Duration.ofMillis(500)))
                  .created());
      assertThat(lineup.stats(queue).ready()).isEqualTo(2);
    }
  }

  @Test
  void aJobPastItsTtlExpiresWhereverItIsAndItsLeaseCanNoLongerAck() {
    ManualClock clock = new ManualClock(Instant.parse("2030-01-01T00:00:00Z"));
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine(options -> options.timeSource(clock))) {
      String waiting = lineup.publish(queue, aJob("offer").ttl(Duration.ofSeconds(10))).id();
      String delayed =
          lineup
              .publish(
                  queue, aJob("later").delay(Duration.ofSeconds(20)).ttl(Duration.ofSeconds(10)))
              .id();
      lineup.publish(queue, aJob("leased").ttl(Duration.ofSeconds(10)).priority(5));
      LeasedJob leased = lineup.lease(queue, 1, Duration.ZERO).jobs().get(0);
      assertThat(leased.payloadText()).isEqualTo("leased");

      clock.advance(Duration.ofSeconds(10));
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> lineup.get(queue, leased.id()).orElseThrow().state() == JobState.EXPIRED);
      assertThat(lineup.get(queue, waiting).orElseThrow().state()).isEqualTo(JobState.EXPIRED);
      assertThat(lineup.get(queue, delayed).orElseThrow().state()).isEqualTo(JobState.EXPIRED);
      assertThat(lineup.lease(queue, 10, Duration.ZERO).jobs()).isEmpty();
      assertThatThrownBy(() -> lineup.ack(leased))
          .isInstanceOfSatisfying(
              LeaseLostException.class,
              e -> assertThat(e.reason()).isEqualTo(LeaseLostException.Reason.JOB_EXPIRED));
      QueueStats stats = lineup.stats(queue);
      assertThat(stats.ready() + stats.delayed() + stats.leased()).isZero();
      assertThat(stats.counters()).containsEntry("expired", 3L);
    }
  }

  @Test
  void finishedRecordsAreDroppedAfterTheRetentionWindow() {
    ManualClock clock = new ManualClock(Instant.parse("2030-01-01T00:00:00Z"));
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine(options -> options.timeSource(clock))) {
      lineup.configure(queue, QueueSettings.builder().retention(Duration.ofMinutes(10)).build());
      lineup.publish(queue, aJob("x"));
      LeasedJob job = lineup.lease(queue, 1, Duration.ZERO).jobs().get(0);
      lineup.ack(job);
      clock.advance(Duration.ofMinutes(9));
      assertThat(lineup.exists(queue, job.id())).isTrue();
      clock.advance(Duration.ofMinutes(2));
      await().atMost(Duration.ofSeconds(15)).until(() -> !lineup.exists(queue, job.id()));
      assertThat(lineup.stats(queue).finished()).isZero();
    }
  }

  @Test
  void withZeroRetentionAnAckedJobLeavesNoRecord() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine()) {
      lineup.configure(queue, QueueSettings.builder().retention(Duration.ZERO).build());
      lineup.publish(queue, aJob("x"));
      LeasedJob job = lineup.lease(queue, 1, Duration.ZERO).jobs().get(0);
      lineup.ack(job);
      assertThat(lineup.exists(queue, job.id())).isFalse();
    }
  }
}
