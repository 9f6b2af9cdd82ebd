package io.lineup.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SteadinessTest {

  @Test
  void cpuPerOperationIsSteadyOnceThreeRoundsInARowAgreeWithinFivePercent() {
    Steadiness steadiness = new Steadiness();
    assertThat(steadiness.observe(30)).isFalse();
    assertThat(steadiness.observe(12)).isFalse();
    assertThat(steadiness.observe(10)).isFalse();
    assertThat(steadiness.observe(10.4)).isFalse();
    assertThat(steadiness.observe(10.1)).isTrue();
  }

  @Test
  void twoRoundsAlikeAreNotEnoughWhileTheCompilerWorksInWaves() {
    Steadiness steadiness = new Steadiness();
    assertThat(steadiness.observe(15)).isFalse();
    assertThat(steadiness.observe(14.9)).isFalse();
    // A wave of compilation: the count starts again from this round.
    assertThat(steadiness.observe(22)).isFalse();
    assertThat(steadiness.observe(7)).isFalse();
    assertThat(steadiness.observe(6.9)).isFalse();
    assertThat(steadiness.observe(7.1)).isTrue();
  }

  @Test
  void aChangeOfMoreThanFivePercentBreaksTheRun() {
    Steadiness steadiness = new Steadiness();
    steadiness.observe(10);
    steadiness.observe(10);
    assertThat(steadiness.observe(10.6)).isFalse();
    assertThat(steadiness.observe(10.6)).isFalse();
    assertThat(steadiness.observe(10.6)).isTrue();
  }
}
