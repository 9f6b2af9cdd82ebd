package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.someJobs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lineup.core.model.AdaptiveMove;
import io.lineup.core.model.AdaptiveMove.Direction;
import io.lineup.core.model.AdaptiveSettings;
import io.lineup.core.model.AdaptiveState;
import io.lineup.core.model.DeadlineUnreachableException;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Adaptive concurrency limits shared in Redis: one limit per queue that every engine moves by
 * reporting signals, at most once per window, checked by the lease script and followed by the ETA.
 * Windows are driven by a {@link ManualClock} shared by the engines, so every test asserts the
 * decisions, never a speed. Runs on both topologies ({@link AdaptiveLimitsOnStandaloneTest}, {@link
 * AdaptiveLimitsOnClusterTest}).
 */
abstract class AdaptiveLimitsTest extends EngineSuite {
  private static final Duration WINDOW = Duration.ofSeconds(1);
  private static final Duration FAST = Duration.ofMillis(50);
  private static final Duration SLOW = Duration.ofMillis(900);

  private static AdaptiveSettings settings(int min, int max, int initial) {
    return new AdaptiveSettings(
        min, max, initial, Duration.ofMillis(200), WINDOW, 0.8, AdaptiveSettings.DEFAULT_HOLD_CAP);
  }

  /** A clock at the start of a window, so a test's reports fall where it says. */
  private static ManualClock aClock() {
    return new ManualClock(Instant.parse("2030-01-01T00:00:00Z"));
  }

  @Test
  void twoEnginesShareOneLimitThatA429DecreasesOncePerWindowNotOncePerEngine() {
    ManualClock clock = aClock();
    QueueName queue = aFreshQueue();
    try (Lineup one = anEngine(o -> o.timeSource(clock));
        Lineup two = anEngine(o -> o.timeSource(clock))) {
      one.adaptiveLimits().configure(queue, settings(1, 10, 10));

      AdaptiveMove first = one.adaptiveLimits().report(queue, FAST, 429, null);
      AdaptiveMove second = two.adaptiveLimits().report(queue, FAST, 429, null);
      AdaptiveMove third = one.adaptiveLimits().report(queue, FAST, 503, null);

      assertThat(first.direction()).isEqualTo(Direction.DOWN);
      assertThat(first.limit()).isEqualTo(8);
      assertThat(first.reason()).isEqualTo("decrease: 429");
      assertThat(second.direction()).isEqualTo(Direction.NONE);
      assertThat(third.direction()).isEqualTo(Direction.NONE);
      assertThat(two.adaptiveLimits().read(queue).orElseThrow().limit()).isEqualTo(8);

      clock.advance(WINDOW);
      AdaptiveMove nextWindow = two.adaptiveLimits().report(queue, FAST, 503, null);
      assertThat(nextWindow.direction()).isEqualTo(Direction.DOWN);
      assertThat(nextWindow.limit()).isEqualTo(6);
      AdaptiveState state = one.adaptiveLimits().read(queue).orElseThrow();
      assertThat(state.limit()).isEqualTo(6);
      assertThat(state.reason()).isEqualTo("decrease: 503");
      assertThat(state.movedAt()).isEqualTo(clock.now());
    }
  }

  @Test
  void theLeaseScriptHoldsTheAdaptiveLimitAndItDoublesAWindowWhileItIsUsedAndAnswersAreFast() {
    ManualClock clock = aClock();
    QueueName queue = aFreshQueue();
    try (Lineup one = anEngine(o -> o.timeSource(clock));
        Lineup two = anEngine(o -> o.timeSource(clock))) {
      one.configure(queue, QueueSettings.builder().concurrencyLimit(20).build());
      one.publishAll(queue, someJobs(30, "call "));
      one.adaptiveLimits().configure(queue, settings(1, 10, 2));

      assertThat(one.lease(queue, 20, Duration.ZERO).jobs()).as("the limit of 2").hasSize(2);
      // Both engines report fast answers in the same window: it closes once, in the next one.
      one.adaptiveLimits().report(queue, FAST, 200, null);
      two.adaptiveLimits().report(queue, FAST, 200, null);
      clock.advance(WINDOW);
      AdaptiveMove up = two.adaptiveLimits().report(queue, FAST, 200, null);
      AdaptiveMove same = one.adaptiveLimits().report(queue, FAST, 200, null);

      // 50 ms against 200 ms: four times the headroom, so the step is the largest, doubling the
      // 2 in flight.
      assertThat(up.direction()).isEqualTo(Direction.UP);
      assertThat(up.limit()).isEqualTo(4);
      assertThat(up.reason()).isEqualTo("increase: latency 50ms<=200ms");
      assertThat(same.direction()).isEqualTo(Direction.NONE);
      assertThat(two.lease(queue, 20, Duration.ZERO).jobs()).as("two more slots").hasSize(2);

      // The reports of this window see the 4 in flight.
      one.adaptiveLimits().report(queue, FAST, 200, null);
      clock.advance(WINDOW);
      assertThat(two.adaptiveLimits().report(queue, FAST, 200, null).limit()).isEqualTo(8);
      assertThat(one.lease(queue, 20, Duration.ZERO).jobs()).as("four more slots").hasSize(4);

      one.adaptiveLimits().report(queue, FAST, 200, null);
      clock.advance(WINDOW);
      AdaptiveMove toMax = one.adaptiveLimits().report(queue, FAST, 200, null);
      assertThat(toMax.limit()).as("16 clamped to max").isEqualTo(10);
      clock.advance(WINDOW);
      AdaptiveMove atMax = one.adaptiveLimits().report(queue, FAST, 200, null);
      assertThat(atMax.direction()).isEqualTo(Direction.NONE);
      assertThat(atMax.limit()).isEqualTo(10);
    }
  }

  @Test
  void answersCloseToTheTargetRaiseTheLimitLessAndAtLeastByOne() {
    ManualClock clock = aClock();
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine(o -> o.timeSource(clock))) {
      lineup.configure(queue, QueueSettings.builder().concurrencyLimit(50).build());
      lineup.publishAll(queue, someJobs(40, "call "));
      lineup.adaptiveLimits().configure(queue, settings(1, 40, 10));
      assertThat(lineup.lease(queue, 50, Duration.ZERO).jobs()).hasSize(10);

      // 180 ms against 200 ms: a ninth of headroom, cubed 1.37: 10 in flight become 13.
      lineup.adaptiveLimits().report(queue, Duration.ofMillis(180), 200, null);
      clock.advance(WINDOW);
      AdaptiveMove quarter = lineup.adaptiveLimits().report(queue, null, 0, null);
      assertThat(quarter.limit()).isEqualTo(13);
      assertThat(quarter.reason()).isEqualTo("increase: latency 180ms<=200ms");

      // 195 ms: 10 × 1.08 is 10 again, still one more.
      lineup.adaptiveLimits().report(queue, Duration.ofMillis(195), 200, null);
      clock.advance(WINDOW);
      assertThat(lineup.adaptiveLimits().report(queue, null, 0, null).limit()).isEqualTo(14);
    }
  }

  @Test
  void aWindowThatUsedHalfTheLimitRaisesItByOneOnlyHoweverFastTheAnswers() {
    ManualClock clock = aClock();
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine(o -> o.timeSource(clock))) {
      lineup.configure(queue, QueueSettings.builder().concurrencyLimit(50).build());
      lineup.publishAll(queue, someJobs(4, "call "));
      lineup.adaptiveLimits().configure(queue, settings(1, 40, 8));
      assertThat(lineup.lease(queue, 50, Duration.ZERO).jobs()).as("all there is").hasSize(4);

      lineup.adaptiveLimits().report(queue, Duration.ofMillis(1), 200, null);
      clock.advance(WINDOW);
      AdaptiveMove move = lineup.adaptiveLimits().report(queue, null, 0, null);

      // Twice the 4 used is the limit already: the step is the least one.
      assertThat(move.direction()).isEqualTo(Direction.UP);
      assertThat(move.limit()).isEqualTo(9);
    }
  }

  @Test
  void aFastWindowThatUsedLessThanHalfTheLimitLeavesItWhereItIs() {
    ManualClock clock = aClock();
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine(o -> o.timeSource(clock))) {
      lineup.adaptiveLimits().configure(queue, settings(1, 10, 6));
      lineup.adaptiveLimits().report(queue, FAST, 200, null);
      clock.advance(WINDOW);
      AdaptiveMove move = lineup.adaptiveLimits().report(queue, FAST, 200, null);
      assertThat(move.direction()).isEqualTo(Direction.NONE);
      assertThat(move.limit()).isEqualTo(6);
    }
  }

  @Test
  void aWindowSlowerThanTheTargetDecreasesOnceAndA429InTheSameWindowDoesNotDecreaseAgain() {
    ManualClock clock = aClock();
    QueueName queue = aFreshQueue();
    try (Lineup one = anEngine(o -> o.timeSource(clock));
        Lineup two = anEngine(o -> o.timeSource(clock))) {
      one.adaptiveLimits().configure(queue, settings(1, 10, 10));
      one.adaptiveLimits().report(queue, SLOW, 200, null);
      two.adaptiveLimits().report(queue, Duration.ofMillis(700), 200, null);
      clock.advance(WINDOW);

      AdaptiveMove down = two.adaptiveLimits().report(queue, FAST, 200, null);
      AdaptiveMove overload = one.adaptiveLimits().report(queue, FAST, 429, null);

      assertThat(down.direction()).isEqualTo(Direction.DOWN);
      assertThat(down.limit()).isEqualTo(8);
      assertThat(down.reason()).isEqualTo("decrease: latency 800ms>200ms");
      assertThat(overload.direction()).isEqualTo(Direction.NONE);
      assertThat(overload.limit()).isEqualTo(8);
    }
  }

  @Test
  void aWindowALittleOverTheTargetCutsALittleAndOneFarOverItCutsByTheDecreaseAtMost() {
    ManualClock clock = aClock();
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine(o -> o.timeSource(clock))) {
      lineup.adaptiveLimits().configure(queue, settings(1, 40, 30));

      // 220 ms against 200 ms: 30 × 200 / 220 = 27.3, so 27.
      lineup.adaptiveLimits().report(queue, Duration.ofMillis(220), 200, null);
      clock.advance(WINDOW);
      AdaptiveMove little = lineup.adaptiveLimits().report(queue, null, 0, null);
      assertThat(little.limit()).isEqualTo(27);
      assertThat(little.reason()).isEqualTo("decrease: latency 220ms>200ms");

      // The window after a cut is not judged: its answers were sent at the limit before it.
      lineup.adaptiveLimits().report(queue, Duration.ofMillis(2_000), 200, null);
      clock.advance(WINDOW);
      AdaptiveMove unjudged =
          lineup.adaptiveLimits().report(queue, Duration.ofMillis(2_000), 200, null);
      assertThat(unjudged.direction()).isEqualTo(Direction.NONE);
      assertThat(unjudged.limit()).isEqualTo(27);

      // 2 s against 200 ms would be a tenth: the cut is the decrease, 27 × 0.8 = 21.6, so 21.
      clock.advance(WINDOW);
      AdaptiveMove far = lineup.adaptiveLimits().report(queue, null, 0, null);
      assertThat(far.limit()).isEqualTo(21);
      assertThat(far.reason()).isEqualTo("decrease: latency 2000ms>200ms");
    }
  }

  @Test
  void aWindowUnderASecondIsJudgedOnlyOnceItHoldsFiveAnswers() {
    ManualClock clock = aClock();
    QueueName queue = aFreshQueue();
    Duration half = Duration.ofMillis(500);
    try (Lineup lineup = anEngine(o -> o.timeSource(clock))) {
      lineup
          .adaptiveLimits()
          .configure(
              queue,
              new AdaptiveSettings(
                  1, 10, 10, Duration.ofMillis(200), half, 0.8, AdaptiveSettings.DEFAULT_HOLD_CAP));
      for (int i = 0; i < 4; i++) {
        lineup.adaptiveLimits().report(queue, SLOW, 200, null);
      }
      clock.advance(half);
      AdaptiveMove carried = lineup.adaptiveLimits().report(queue, null, 0, null);
      assertThat(carried.direction()).as("4 answers: carried on").isEqualTo(Direction.NONE);
      assertThat(carried.limit()).isEqualTo(10);

      lineup.adaptiveLimits().report(queue, SLOW, 200, null);
      clock.advance(half);
      AdaptiveMove judged = lineup.adaptiveLimits().report(queue, null, 0, null);
      assertThat(judged.direction()).isEqualTo(Direction.DOWN);
      assertThat(judged.limit()).isEqualTo(8);
      assertThat(judged.reason()).isEqualTo("decrease: latency 900ms>200ms");
    }
  }

  @Test
  void theDefaultWindowIsTwiceTheTargetAndAtLeastHalfASecond() {
    assertThat(AdaptiveSettings.defaultWindow(Duration.ofMillis(130)))
        .isEqualTo(Duration.ofMillis(500));
    assertThat(AdaptiveSettings.defaultWindow(Duration.ofMillis(400)))
        .isEqualTo(Duration.ofMillis(800));
  }

  @Test
  void repeated429sLowerTheLimitToItsMinimumAndNoFurther() {
    ManualClock clock = aClock();
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine(o -> o.timeSource(clock))) {
      lineup.adaptiveLimits().configure(queue, settings(3, 10, 10));
      List<Integer> limits = new java.util.ArrayList<>();
      for (int i = 0; i < 6; i++) {
        limits.add(lineup.adaptiveLimits().report(queue, FAST, 429, null).limit());
        clock.advance(WINDOW);
      }
      assertThat(limits).containsExactly(8, 6, 4, 3, 3, 3);
    }
  }

  @Test
  void aRetryAfterHoldsEveryLeaseUntilItEnds() {
    ManualClock clock = aClock();
    QueueName queue = aFreshQueue();
    try (Lineup one = anEngine(o -> o.timeSource(clock));
        Lineup two = anEngine(o -> o.timeSource(clock))) {
      one.publishAll(queue, someJobs(5, "call "));
      one.adaptiveLimits().configure(queue, settings(1, 10, 10));

      AdaptiveMove held = one.adaptiveLimits().report(queue, FAST, 429, Duration.ofSeconds(5));
      assertThat(held.direction()).isEqualTo(Direction.DOWN);
      assertThat(held.reason()).isEqualTo("decrease: 429, hold: retry-after 5000ms");
      assertThat(two.adaptiveLimits().read(queue).orElseThrow().holdUntil())
          .isEqualTo(clock.now().plusSeconds(5));
      assertThat(two.lease(queue, 1, Duration.ZERO).jobs()).as("held").isEmpty();

      // A second 429 in the window holds no longer than it already does, and does not decrease.
      AdaptiveMove again = two.adaptiveLimits().report(queue, FAST, 429, Duration.ofSeconds(1));
      assertThat(again.direction()).isEqualTo(Direction.NONE);

      clock.advance(Duration.ofMillis(4_999));
      assertThat(one.lease(queue, 1, Duration.ZERO).jobs()).as("still held").isEmpty();
      clock.advance(Duration.ofMillis(1));
      List<LeasedJob> after = one.lease(queue, 1, Duration.ZERO).jobs();
      assertThat(after).as("the hold ended").hasSize(1);
      assertThat(one.adaptiveLimits().read(queue).orElseThrow().holdUntil()).isNull();
    }
  }

  @Test
  void theEtaFollowsTheAdaptiveLimitAsSoonAsItMoves() {
    ManualClock clock = aClock();
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine(o -> o.timeSource(clock))) {
      lineup.configure(
          queue,
          QueueSettings.builder()
              .concurrencyLimit(10)
              .expectedServiceTime(Duration.ofSeconds(1))
              .build());
      lineup.publishAll(queue, someJobs(100, "call "));
      lineup.adaptiveLimits().configure(queue, settings(1, 10, 10));
      Duration before = lineup.etaEstimator(queue).eta(99).orElseThrow().point();

      lineup.adaptiveLimits().report(queue, FAST, 429, null);
      Duration after = lineup.etaEstimator(queue).eta(99).orElseThrow().point();

      // 10 at once, 1 s each: 100 jobs in 10 s; at 8 at once, in 12.5 s.
      assertThat(before).isEqualTo(Duration.ofSeconds(10));
      assertThat(after).isEqualTo(Duration.ofMillis(12_500));
      assertThat(lineup.stats(queue).settings().concurrencyLimit()).isEqualTo(8);
    }
  }

  @Test
  void theDeadlineCheckAtPublishUsesTheSameEstimateAndRefusesWhatTheLowerLimitCannotMeet() {
    ManualClock clock = aClock();
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine(o -> o.timeSource(clock))) {
      lineup.configure(
          queue,
          QueueSettings.builder()
              .concurrencyLimit(10)
              .expectedServiceTime(Duration.ofSeconds(1))
              .build());
      lineup.publishAll(queue, someJobs(100, "call "));
      lineup.adaptiveLimits().configure(queue, settings(1, 10, 10));
      // With the expected service time alone the band's slow rate is half the rate: at 10 at
      // once the job at place 100 starts by 101 / 5 + 1 = 21.2 s; at 8, by 102 / 4 + 1 = 26.5 s.
      Duration deadline = Duration.ofSeconds(24);

      lineup.publish(queue, Fixtures.aJob("in time").startBy(clock.now().plus(deadline)));
      lineup.adaptiveLimits().report(queue, FAST, 429, null);

      assertThatThrownBy(() ->
              lineup.publish(queue, Fixtures.aJob("too late").startBy(clock.now().plus(deadline))))
          .isInstanceOf(DeadlineUnreachableException.class);
      assertThat(lineup.stats(queue).ready()).isEqualTo(101);
    }
  }

  @Test
  void turnedOffTheQueueLeasesUpToItsFixedConcurrencyAgain() {
    ManualClock clock = aClock();
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine(o -> o.timeSource(clock))) {
      lineup.configure(queue, QueueSettings.builder().concurrencyLimit(5).build());
      lineup.publishAll(queue, someJobs(10, "call "));
      lineup.adaptiveLimits().configure(queue, settings(1, 5, 1));
      assertThat(lineup.lease(queue, 10, Duration.ZERO).jobs()).hasSize(1);

      lineup.adaptiveLimits().off(queue);

      assertThat(lineup.adaptiveLimits().read(queue)).isEmpty();
      assertThat(lineup.lease(queue, 10, Duration.ZERO).jobs()).hasSize(4);
      assertThat(lineup.adaptiveLimits().report(queue, FAST, 429, null).direction())
          .isEqualTo(Direction.OFF);
    }
  }

  @Test
  void newBoundsMoveALimitInForceIntoThemAndKeepItOtherwise() {
    ManualClock clock = aClock();
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine(o -> o.timeSource(clock))) {
      assertThat(lineup.adaptiveLimits().configure(queue, settings(2, 10, 7))).isEqualTo(7);
      assertThat(lineup.adaptiveLimits().configure(queue, settings(1, 20, 1))).isEqualTo(7);
      assertThat(lineup.adaptiveLimits().configure(queue, settings(1, 5, 1))).isEqualTo(5);
      assertThat(lineup.adaptiveLimits().read(queue).orElseThrow().reason())
          .isEqualTo("bounds: max 5");
    }
  }
}
