package io.lineup.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.bench.report.Figure;
import java.util.List;
import org.junit.jupiter.api.Test;

class RoundsTest {

  @Test
  void theMedianOfAnOddCountIsTheMiddleValueWhateverTheOrder() {
    assertThat(Rounds.median(new double[] {5.1, 3.9, 4.4})).isEqualTo(4.4);
  }

  @Test
  void theMedianOfAnEvenCountIsTheLowerMiddleValue() {
    assertThat(Rounds.median(new double[] {4, 1, 3, 2})).isEqualTo(2);
  }

  @Test
  void theMedianLeavesTheRoundsInTheirOrder() {
    double[] rounds = {3, 1, 2};
    Rounds.median(rounds);
    assertThat(rounds).containsExactly(3, 1, 2);
  }

  @Test
  void interleavedPhasesRunInTheGivenOrderInOddRoundsAndReversedInEvenOnes() {
    assertThat(Rounds.order(2, 1)).containsExactly(0, 1);
    assertThat(Rounds.order(2, 2)).containsExactly(1, 0);
    assertThat(Rounds.order(3, 3)).containsExactly(0, 1, 2);
    assertThat(Rounds.order(1, 2)).containsExactly(0);
  }

  @Test
  void aPairOfFiguresComesFromTheRoundWhoseRatioIsTheMedian() {
    // Round ratios 0.99, 0.85, 0.98: the median is round 3's, though the separate medians of the
    // first figure (48.2) and the second (41.1) come from different rounds.
    List<List<Figure>> rounds = List.of(pair(29.5, 29.1), pair(48.2, 41.1), pair(49.9, 49.0));
    assertThat(Rounds.medianRatioRound(rounds, 1, 0, Figure::value)).isEqualTo(2);
  }

  @Test
  void anEvenCountOfPairsGivesTheRoundWithTheLowerMiddleRatio() {
    List<List<Figure>> rounds = List.of(pair(10, 9), pair(10, 7), pair(10, 10), pair(10, 8));
    assertThat(Rounds.medianRatioRound(rounds, 1, 0, Figure::value)).isEqualTo(3);
  }

  @Test
  void theFiguresOfARoundAreReportedTogetherFromTheRoundWithTheMedianFirstFigure() {
    // The lag of the fastest round is the lowest, yet the reported lag is the median round's.
    List<Figure> slow = List.of(figure("consume_per_s_archived", 50), figure("lag", 300));
    List<Figure> median = List.of(figure("consume_per_s_archived", 60), figure("lag", 200));
    List<Figure> fast = List.of(figure("consume_per_s_archived", 70), figure("lag", 100));

    assertThat(Rounds.medianByFirst(List.of(fast, slow, median))).isSameAs(median);
    assertThat(Rounds.medianByFirst(List.of(fast, slow, median, median))).isSameAs(median);
  }

  @Test
  void aRatioOfRedisCpuPerJobChoosesItsRoundByThoseFiguresNotByTheirValues() {
    // Floor and engine drains: the engine's Redis CPU over the floor's is 2.5, 1.5 and 2.0 a round,
    // while the rates alone would put another round in the middle.
    List<List<Figure>> rounds =
        List.of(drains(4.0, 10.0, 50_000), drains(6.0, 9.0, 60_000), drains(5.0, 10.0, 40_000));
    assertThat(Rounds.medianRatioRound(rounds, 1, 0, Figure::redisCpuMicrosPerJob)).isEqualTo(2);
    assertThat(Rounds.medianRatioRound(rounds, 1, 0, Figure::value)).isNotEqualTo(2);
  }

  private static List<Figure> drains(double floorMicros, double engineMicros, double engineRate) {
    return List.of(
        new Figure("floor_consume_us", floorMicros, Figure.Unit.MICROSECONDS, floorMicros, 1, 1),
        new Figure("consume_per_s", engineRate, Figure.Unit.PER_SECOND, engineMicros, 1, 1));
  }

  private static List<Figure> pair(double first, double second) {
    return List.of(figure("consume_per_s", first), figure("consume_per_s_1m", second));
  }

  private static Figure figure(String name, double value) {
    return new Figure(name, value, Figure.Unit.PER_SECOND, 1, 1, 1);
  }
}
