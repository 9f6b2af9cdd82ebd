package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lineup.core.model.DeadlineUnreachableException;
import io.lineup.core.model.Eta;
import io.lineup.core.model.JobState;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A job's start-by time checked at publish against the queue's ETA ({@link NewJob#startBy}): a
 * deadline the line cannot meet is refused with nothing written; one it can meet becomes the job's
 * TTL. The ETA is made large and exact by a manual clock and an expected service time with one job
 * at a time (nothing is ever served, so the estimate comes from the expected time alone). Runs on
 * both topologies ({@link StartByDeadlineOnStandaloneTest}, {@link StartByDeadlineOnClusterTest}).
 */
abstract class StartByDeadlineTest extends EngineSuite {
  private static final Instant START = Instant.parse("2030-01-01T00:00:00Z");

  /** A queue served one job at a time at one job a second, with 50 jobs waiting. */
  private QueueName aSlowLineOfFifty(Lineup lineup) {
    QueueName queue = aFreshQueue();
    lineup.configure(
        queue,
        QueueSettings.builder()
            .concurrencyLimit(1)
            .expectedServiceTime(Duration.ofSeconds(1))
            .build());
    List<NewJob> waiting = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      waiting.add(aJob("waiting " + i));
    }
    lineup.publishAll(queue, waiting);
    return queue;
  }

  @Test
  void aJobWhoseStartByTheLineCannotMeetIsRefusedWithTheEarliestStartAndNothingIsWritten() {
    ManualClock clock = new ManualClock(START);
    try (Lineup lineup = anEngine(options -> options.timeSource(clock))) {
      QueueName queue = aSlowLineOfFifty(lineup);
      Eta back = lineup.etaEstimator(queue).eta(50).orElseThrow();
      Instant startBy = START.plusSeconds(60);
      assertThat(START.plus(back.high())).isAfter(startBy);

      assertThatThrownBy(() -> lineup.publish(queue, aJob("too late").startBy(startBy)))
          .isInstanceOfSatisfying(
              DeadlineUnreachableException.class,
              e -> {
                assertThat(e.earliestStartAt()).isEqualTo(START.plus(back.high()));
                assertThat(e.startBy()).isEqualTo(startBy);
                assertThat(e.index()).isZero();
              });
      assertThat(lineup.stats(queue).ready()).isEqualTo(50);
      assertThat(lineup.stats(queue).counters()).containsEntry("published", 50L);
    }
  }

  @Test
  void aBatchWithOneUnreachableStartByWritesNoneOfItsJobs() {
    ManualClock clock = new ManualClock(START);
    try (Lineup lineup = anEngine(options -> options.timeSource(clock))) {
      QueueName queue = aSlowLineOfFifty(lineup);
      List<NewJob> batch =
          List.of(aJob("no deadline"), aJob("too late").startBy(START.plusSeconds(60)));
      assertThatThrownBy(() -> lineup.publishAll(queue, batch))
          .isInstanceOfSatisfying(
              DeadlineUnreachableException.class, e -> assertThat(e.index()).isEqualTo(1));
      assertThat(lineup.stats(queue).counters()).containsEntry("published", 50L);
    }
  }

  @Test
  void aJobThatCanStartInTimeIsAcceptedAndExpiresWhenNotStartedByItsStartBy() {
    ManualClock clock = new ManualClock(START);
    try (Lineup lineup = anEngine(options -> options.timeSource(clock))) {
      QueueName queue = aSlowLineOfFifty(lineup);
      Instant startBy = START.plusSeconds(600);
      String id = lineup.publish(queue, aJob("in time").startBy(startBy)).id();
      assertThat(lineup.get(queue, id).orElseThrow().state()).isEqualTo(JobState.READY);

      clock.advance(Duration.ofSeconds(599));
      assertThat(lineup.get(queue, id).orElseThrow().state()).isEqualTo(JobState.READY);
      clock.advance(Duration.ofSeconds(1));
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> lineup.get(queue, id).orElseThrow().state() == JobState.EXPIRED);
    }
  }

  @Test
  void aQueueWithoutAnEtaAcceptsAStartByThatHasNotPassedAndRefusesOneThatHas() {
    ManualClock clock = new ManualClock(START);
    try (Lineup lineup = anEngine(options -> options.timeSource(clock))) {
      QueueName queue = aFreshQueue();
      lineup.publish(queue, aJob("ahead"));
      assertThat(lineup.publish(queue, aJob("soon").startBy(START.plusSeconds(1))).created())
          .isTrue();
      assertThatThrownBy(() -> lineup.publish(queue, aJob("past").startBy(START.minusMillis(1))))
          .isInstanceOfSatisfying(
              DeadlineUnreachableException.class,
              e -> assertThat(e.earliestStartAt()).isEqualTo(START));
      assertThat(lineup.stats(queue).counters()).containsEntry("published", 2L);
    }
  }

  @Test
  void aStartByThatFallsBeforeTheJobsDelayIsRefused() {
    ManualClock clock = new ManualClock(START);
    try (Lineup lineup = anEngine(options -> options.timeSource(clock))) {
      QueueName queue = aFreshQueue();
      assertThatThrownBy(() ->
              lineup.publish(
                  queue,
                  aJob("later").delay(Duration.ofSeconds(30)).startBy(START.plusSeconds(10))))
          .isInstanceOfSatisfying(
              DeadlineUnreachableException.class,
              e -> assertThat(e.earliestStartAt()).isEqualTo(START.plusSeconds(30)));
    }
  }

  @Test
  void twoEnginesOnOneRedisGiveTheSameAnswer() {
    ManualClock clock = new ManualClock(START);
    try (Lineup one = anEngine(options -> options.timeSource(clock));
        Lineup two = anEngine(options -> options.timeSource(clock))) {
      QueueName queue = aSlowLineOfFifty(one);
      Instant startBy = START.plusSeconds(60);
      DeadlineUnreachableException first =
          catchRefusal(() -> one.publish(queue, aJob("a").startBy(startBy)));
      DeadlineUnreachableException second =
          catchRefusal(() -> two.publish(queue, aJob("b").startBy(startBy)));
      assertThat(second.earliestStartAt()).isEqualTo(first.earliestStartAt());
      assertThat(one.publish(queue, aJob("c").startBy(START.plusSeconds(600))).created()).isTrue();
      assertThat(two.publish(queue, aJob("d").startBy(START.plusSeconds(600))).created()).isTrue();
    }
  }

  private static DeadlineUnreachableException catchRefusal(Runnable publish) {
    try {
      publish.run();
    } catch (DeadlineUnreachableException e) {
      return e;
    }
    throw new AssertionError("the publish was not refused");
  }
}
