package io.lineup.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongToIntFunction;
import org.junit.jupiter.api.Test;

class SettlingTest {
  private static final long MS = 1_000_000;

  /** Samples every 50 ms over {@code millis}, the open count as a function of the time in ms. */
  private static List<CapacityTarget.Sample> samples(long millis, LongToIntFunction open) {
    List<CapacityTarget.Sample> samples = new ArrayList<>();
    for (long t = 0; t <= millis; t += 50) {
      samples.add(new CapacityTarget.Sample(t * MS, open.applyAsInt(t), 50));
    }
    return samples;
  }

  @Test
  void openRequestsRisingToTheCapacitySettleOnceTheirAverageStaysInTheBand() {
    // 10 open, then 50 from 3 s on: the one-second average enters ±10 % of 50 a little under 4 s.
    List<CapacityTarget.Sample> samples = samples(10_000, t -> t < 3_000 ? 10 : 50);

    long settle = Settling.settleMillis(samples, 50, 0, 10_000 * MS);

    assertThat(settle).isBetween(3_800L, 4_000L);
  }

  @Test
  void aSawToothAroundTheCapacityCountsAsSettled() {
    // 47 to 53 and back every second: always within ±10 % on average.
    List<CapacityTarget.Sample> samples = samples(10_000, t -> 47 + (int) (t % 1_000) * 6 / 1_000);

    assertThat(Settling.settleMillis(samples, 50, 0, 10_000 * MS)).isZero();
  }

  @Test
  void passingThroughTheBandOnTheWayToAnOvershootIsNotSettling() {
    // Climbs 1 per 50 ms from 0 to 100 and stays there: inside the band for about a second only.
    List<CapacityTarget.Sample> samples = samples(10_000, t -> (int) Math.min(100, t / 50));

    assertThat(Settling.settleMillis(samples, 50, 0, 10_000 * MS)).isEqualTo(-1);
  }

  @Test
  void aHoldThatWouldEndAfterTheStepIsNotSettling() {
    // In the band only from 9 s of a 10 s step: too late to hold for two seconds.
    List<CapacityTarget.Sample> samples = samples(10_000, t -> t < 8_000 ? 0 : 50);

    assertThat(Settling.settleMillis(samples, 50, 0, 10_000 * MS)).isEqualTo(-1);
  }

  @Test
  void samplesOutsideTheStepAreIgnored() {
    // Open at the capacity before the step began, far from it during the step.
    List<CapacityTarget.Sample> samples = samples(10_000, t -> t < 5_000 ? 50 : 5);

    assertThat(Settling.settleMillis(samples, 50, 5_000 * MS, 10_000 * MS)).isEqualTo(-1);
    assertThat(Settling.settleMillis(samples, 50, 0, 5_000 * MS)).isZero();
  }
}
