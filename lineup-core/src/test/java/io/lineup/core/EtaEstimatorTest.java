package io.lineup.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.lineup.core.model.Eta;
import io.lineup.core.model.EtaEstimator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The estimator's arithmetic on given counts, without Redis. The accuracy of the ETAs the engine
 * gives is checked through the engine, against real Redis, by {@link EtaAccuracyTest}.
 */
class EtaEstimatorTest {
  private static final EtaEstimator.Conditions UNLIMITED = conditions(0, 0, Duration.ZERO, 0);

  static EtaEstimator.Conditions conditions(
      int rateLimit, int concurrencyLimit, Duration expected, long leased) {
    return new EtaEstimator.Conditions(
        false, rateLimit, concurrencyLimit, expected, leased, EtaEstimator.RateWindow.EMPTY);
  }

  static EtaEstimator.Conditions limited(int rateLimit, EtaEstimator.RateWindow window) {
    return new EtaEstimator.Conditions(false, rateLimit, 0, Duration.ZERO, 0, window);
  }

  /** {@code seconds} complete seconds of {@code perSecond} each, then a running second. */
  static List<Long> steady(long perSecond, int seconds) {
    List<Long> counts = new ArrayList<>(Collections.nCopies(seconds, perSecond));
    counts.add(perSecond / 3);
    return counts;
  }

  static List<Long> concat(List<Long> first, List<Long> then) {
    List<Long> all = new ArrayList<>(first);
    all.addAll(then);
    return all;
  }

  @Test
  void aSteadyRateGivesEachPositionItsTurnAtThatRate() {
    EtaEstimator estimate = EtaEstimator.of(steady(100, 20), UNLIMITED);

    assertThat(estimate.basis()).isEqualTo(EtaEstimator.Basis.MEASURED);
    assertThat(estimate.ratePerSecond()).isEqualTo(100);
    assertThat(estimate.eta(0).orElseThrow().point()).isEqualTo(Duration.ofMillis(10));
    assertThat(estimate.eta(999).orElseThrow().point()).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void aRateLimitWithItsOwnPeriodCapsTheRateAtLimitOverPeriod() {
    // 300 per minute is 5 per second, whatever the consumers managed in a burst.
    EtaEstimator.Conditions perMinute =
        new EtaEstimator.Conditions(
            false,
            300,
            0,
            Duration.ZERO,
            0,
            EtaEstimator.RateWindow.EMPTY,
            Duration.ofMinutes(1),
            0);

    EtaEstimator estimate = EtaEstimator.of(steady(20, 10), perMinute);

    assertThat(estimate.ratePerSecond()).isEqualTo(5);
    assertThat(estimate.eta(49).orElseThrow().point()).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void theFirstSecondWithCompletionsIsLeftOutAsItWasOnlyPartlyServed() {
    // Service began late in the first second: 30 of a steady 100 per second.
    List<Long> counts = List.of(30L, 100L, 100L, 40L);

    EtaEstimator estimate = EtaEstimator.of(counts, UNLIMITED);

    assertThat(estimate.ratePerSecond()).isEqualTo(100);
    assertThat(estimate.secondsMeasured()).isEqualTo(2);
  }

  @Test
  void withoutACompleteSecondAfterTheFirstThatFirstSecondCountsAsAWholeOne() {
    assertThat(EtaEstimator.of(List.of(60L, 20L), UNLIMITED).ratePerSecond()).isEqualTo(60);
    assertThat(EtaEstimator.of(List.of(25L), UNLIMITED).ratePerSecond()).isEqualTo(25);
  }

  @Test
  void emptySecondsBeforeTheFirstCompletionDoNotCount() {
    List<Long> counts = concat(List.of(0L, 0L, 0L, 10L), steady(100, 5));
    assertThat(EtaEstimator.of(counts, UNLIMITED).ratePerSecond()).isEqualTo(100);
  }

  @Test
  void afterAChangeOfRateOnlyTheSecondsSinceTheChangeCount() {
    List<Long> counts = concat(Collections.nCopies(40, 100L), steady(50, 10));

    EtaEstimator estimate = EtaEstimator.of(counts, UNLIMITED);

    assertThat(estimate.ratePerSecond()).isEqualTo(50);
    assertThat(estimate.secondsMeasured()).isEqualTo(10);
  }

  @Test
  void aChangeCountsInFullOnceItHasLastedThreeCompleteSeconds() {
    List<Long> one = concat(Collections.nCopies(40, 100L), steady(50, 1));
    List<Long> two = concat(Collections.nCopies(40, 100L), steady(50, 2));
    List<Long> three = concat(Collections.nCopies(40, 100L), steady(50, 3));

    assertThat(EtaEstimator.of(one, UNLIMITED).ratePerSecond()).isGreaterThan(95);
    assertThat(EtaEstimator.of(two, UNLIMITED).ratePerSecond()).isBetween(60.0, 70.0);
    assertThat(EtaEstimator.of(three, UNLIMITED).ratePerSecond()).isEqualTo(50);
  }

  @Test
  void serviceResumingAfterAGapIsMeasuredFromTheResumption() {
    List<Long> counts =
        concat(concat(Collections.nCopies(20, 100L), Collections.nCopies(15, 0L)), steady(100, 4));
    assertThat(EtaEstimator.of(counts, UNLIMITED).ratePerSecond()).isEqualTo(100);
  }

  @Test
  void aSingleOddSecondIsNotTakenForAChangeOfRate() {
    List<Long> stall = concat(Collections.nCopies(30, 100L), List.of(0L, 100L, 100L, 30L));
    List<Long> burst = concat(Collections.nCopies(30, 100L), List.of(55L, 145L, 100L, 100L, 30L));

    assertThat(EtaEstimator.of(stall, UNLIMITED).ratePerSecond()).isCloseTo(96.8, within(0.1));
    assertThat(EtaEstimator.of(burst, UNLIMITED).ratePerSecond()).isCloseTo(100, within(0.1));
  }

  @Test
  void aSmallDriftOfRateIsNotTakenForAChange() {
    List<Long> counts = concat(Collections.nCopies(30, 100L), steady(95, 20));
    assertThat(EtaEstimator.of(counts, UNLIMITED).secondsMeasured()).isEqualTo(49);
  }

  @Test
  void aSlowQueueWithMostlyEmptySecondsKeepsItsWholeWindow() {
    List<Long> counts = new ArrayList<>(Collections.nCopies(60, 0L));
    for (int s = 0; s < 60; s += 7) {
      counts.set(s, 1L);
    }

    EtaEstimator estimate = EtaEstimator.of(counts, UNLIMITED);

    assertThat(estimate.secondsMeasured()).isEqualTo(58);
    assertThat(estimate.ratePerSecond()).isCloseTo(8 / 58.0, within(1e-9));
  }

  @Test
  void theRateLimitCapsTheMeasuredRate() {
    EtaEstimator estimate = EtaEstimator.of(steady(100, 20), conditions(40, 0, Duration.ZERO, 0));

    assertThat(estimate.ratePerSecond()).isEqualTo(40);
    Eta eta = estimate.eta(399).orElseThrow();
    assertThat(eta.point()).isEqualTo(Duration.ofSeconds(10));
    assertThat(eta.low())
        .as("never faster than the limit, less a second")
        .isEqualTo(Duration.ofSeconds(9));
  }

  @Test
  void atItsRateLimitALineServesInTheBurstsItsWindowSchedules() {
    // 1,000 leases a second, all made in one burst 600 to 580 ms ago: their slots free in 400 to
    // 420 ms, and each second after that.
    EtaEstimator estimate =
        EtaEstimator.of(
            steady(1_000, 20), limited(1_000, new EtaEstimator.RateWindow(1_000, 600, 580)));

    assertThat(estimate.atRateLimit()).isTrue();
    assertThat(estimate.eta(0).orElseThrow().point()).isEqualTo(Duration.ofMillis(400));
    assertThat(estimate.eta(999).orElseThrow().point()).isEqualTo(Duration.ofMillis(420));
    assertThat(estimate.eta(5_000).orElseThrow().point()).isEqualTo(Duration.ofMillis(5_400));
    Eta eta = estimate.eta(5_000).orElseThrow();
    assertThat(eta.low()).isLessThan(eta.point());
    assertThat(eta.high()).isGreaterThan(eta.point());
  }

  @Test
  void freeSlotsOfTheWindowServeTheFirstJobsAtOnce() {
    EtaEstimator estimate =
        EtaEstimator.of(steady(100, 20), limited(100, new EtaEstimator.RateWindow(95, 990, 50)));

    assertThat(estimate.eta(4).orElseThrow().point()).isZero();
    assertThat(estimate.eta(5).orElseThrow().point()).isEqualTo(Duration.ofMillis(10));
    assertThat(estimate.eta(99).orElseThrow().point()).isEqualTo(Duration.ofMillis(950));
    assertThat(estimate.eta(105).orElseThrow().point()).isEqualTo(Duration.ofMillis(1_010));
  }

  @Test
  void consumersThatLagBehindTheLimitStretchEachCycle() {
    // 99 a second against a limit of 100: a cycle of 100 leases takes 100 / 99 s.
    EtaEstimator estimate =
        EtaEstimator.of(steady(99, 20), limited(100, new EtaEstimator.RateWindow(100, 800, 800)));
    assertThat(estimate.eta(1_000).orElseThrow().point().toMillis())
        .isEqualTo(200 + Math.round(10_000 / 0.99));
  }

  @Test
  void belowItsRateLimitALineWaitsAtItsMeasuredRate() {
    EtaEstimator slower =
        EtaEstimator.of(steady(50, 20), limited(100, new EtaEstimator.RateWindow(50, 990, 10)));
    EtaEstimator emptyWindow =
        EtaEstimator.of(steady(100, 20), limited(100, new EtaEstimator.RateWindow(20, 990, 10)));

    assertThat(slower.atRateLimit()).isFalse();
    assertThat(emptyWindow.atRateLimit()).isFalse();
    assertThat(slower.eta(99).orElseThrow().point()).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void aConcurrencyLimitBelowTheJobsLeasedNowScalesTheRateDown() {
    EtaEstimator lowered = EtaEstimator.of(steady(100, 20), conditions(0, 5, Duration.ZERO, 20));
    EtaEstimator within = EtaEstimator.of(steady(100, 20), conditions(0, 20, Duration.ZERO, 20));

    assertThat(lowered.ratePerSecond()).isEqualTo(25);
    assertThat(within.ratePerSecond()).isEqualTo(100);
  }

  @Test
  void withNothingServedTheExpectedServiceTimeGivesTheRateWithTheConcurrencyLimitOrTheLeased() {
    EtaEstimator limited = EtaEstimator.of(List.of(), conditions(0, 4, Duration.ofSeconds(2), 0));
    EtaEstimator byLeased =
        EtaEstimator.of(List.of(0L, 0L), conditions(0, 0, Duration.ofSeconds(2), 3));
    EtaEstimator alone = EtaEstimator.of(List.of(), conditions(0, 0, Duration.ofSeconds(2), 0));

    assertThat(limited.basis()).isEqualTo(EtaEstimator.Basis.EXPECTED);
    assertThat(limited.ratePerSecond()).isEqualTo(2);
    assertThat(byLeased.ratePerSecond()).isEqualTo(1.5);
    assertThat(alone.ratePerSecond()).isEqualTo(0.5);
    Eta eta = limited.eta(9).orElseThrow();
    assertThat(eta.point()).isEqualTo(Duration.ofSeconds(5));
    assertThat(eta.low()).isEqualTo(Duration.ofMillis(1500));
    assertThat(eta.high()).isEqualTo(Duration.ofSeconds(11));
  }

  @Test
  void measuredCompletionsWinOverTheExpectedServiceTime() {
    EtaEstimator estimate =
        EtaEstimator.of(steady(10, 5), conditions(0, 4, Duration.ofSeconds(2), 4));
    assertThat(estimate.basis()).isEqualTo(EtaEstimator.Basis.MEASURED);
    assertThat(estimate.ratePerSecond()).isEqualTo(10);
  }

  @Test
  void aPausedLineOrOneThatServedNothingWithoutAnExpectedTimeHasNoEstimate() {
    EtaEstimator paused =
        EtaEstimator.of(
            steady(100, 20),
            new EtaEstimator.Conditions(
                true, 0, 0, Duration.ofSeconds(1), 0, EtaEstimator.RateWindow.EMPTY));
    EtaEstimator idle = EtaEstimator.of(Collections.nCopies(60, 0L), UNLIMITED);
    EtaEstimator stopped =
        EtaEstimator.of(concat(Collections.nCopies(30, 100L), steady(0, 10)), UNLIMITED);
    EtaEstimator limitOnly = EtaEstimator.of(List.of(), conditions(100, 10, Duration.ZERO, 0));

    for (EtaEstimator none : List.of(paused, idle, stopped, limitOnly)) {
      assertThat(none.basis()).as(none.toString()).isEqualTo(EtaEstimator.Basis.NONE);
      assertThat(none.ratePerSecond()).isZero();
      assertThat(none.eta(10)).isEmpty();
    }
  }

  @Test
  void theBandWidensWithTheSpreadOfThePerSecondCountsAndAlwaysHoldsThePoint() {
    List<Long> even = steady(100, 31);
    List<Long> uneven = new ArrayList<>();
    for (int s = 0; s < 31; s++) {
      uneven.add(s % 2 == 0 ? 70L : 130L);
    }
    uneven.add(10L);

    Eta narrow = EtaEstimator.of(even, UNLIMITED).eta(999).orElseThrow();
    Eta wide = EtaEstimator.of(uneven, UNLIMITED).eta(999).orElseThrow();

    assertThat(narrow.point()).isEqualTo(wide.point()).isEqualTo(Duration.ofSeconds(10));
    assertThat(narrow.low()).isEqualTo(Duration.ofSeconds(9));
    assertThat(narrow.high()).isEqualTo(Duration.ofSeconds(11));
    assertThat(wide.low()).isLessThan(narrow.low());
    assertThat(wide.high()).isGreaterThan(narrow.high());
    for (long position : new long[] {0, 1, 10, 100, 10_000, 10_000_000}) {
      Eta eta = EtaEstimator.of(uneven, UNLIMITED).eta(position).orElseThrow();
      assertThat(eta.low()).isLessThanOrEqualTo(eta.point());
      assertThat(eta.high()).isGreaterThanOrEqualTo(eta.point());
    }
  }

  @Test
  void theSlowEndOfTheBandAssumesAtMostAFourfoldSlowerRate() {
    List<Long> erratic = new ArrayList<>();
    for (int s = 0; s < 10; s++) {
      erratic.add(s % 2 == 0 ? 0L : 40L);
    }
    erratic.add(0L);
    Eta eta = EtaEstimator.of(erratic, UNLIMITED).eta(0).orElseThrow();
    assertThat(eta.high()).isEqualTo(Duration.ofMillis(4 * 50 + 1000));
  }

  @Test
  void badInputIsRefused() {
    EtaEstimator estimate = EtaEstimator.of(steady(10, 5), UNLIMITED);
    assertThatThrownBy(() -> estimate.eta(-1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> EtaEstimator.of(List.of(-1L), UNLIMITED))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> conditions(-1, 0, Duration.ZERO, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Eta(Duration.ofSeconds(2), Duration.ofSeconds(3), Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new EtaEstimator.RateWindow(5, 10, 20))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
