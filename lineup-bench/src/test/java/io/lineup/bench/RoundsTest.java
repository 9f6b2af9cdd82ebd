package io.lineup.bench;

import static org.assertj.core.api.Assertions.assertThat;

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
}
