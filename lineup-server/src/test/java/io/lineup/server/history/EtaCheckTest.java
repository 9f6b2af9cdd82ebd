package io.lineup.server.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** How right the ETA of the last in line was, measured on readings. */
class EtaCheckTest {
  /** A reading at a time with jobs ready, the deliveries so far and the estimate then. */
  static QueueSample reading(long at, long ready, long leasedTotal, long drainEtaMs) {
    return new QueueSample(at, ready, 0, 0, 0, 0, 0, 0, leasedTotal, drainEtaMs, 0, 0, 0);
  }

  @Test
  void anEstimateIsComparedWithTheTimeTheLineTookToBeServed() {
    // 10 ready at t=0, estimated 10 s; 5 leased by t=5 s, 15 by t=10 s: the 10th at 7.5 s.
    EtaCheck check =
        EtaCheck.of(
            List.of(
                reading(0, 10, 100, 10_000),
                reading(5_000, 10, 105, -1),
                reading(10_000, 0, 115, -1)));

    assertThat(check.checked()).isEqualTo(1);
    assertThat(check.lastEstimateMs()).isEqualTo(10_000);
    assertThat(check.lastActualMs()).isEqualTo(7_500);
    assertThat(check.meanErrorPercent()).isEqualTo(33.3);
  }

  @Test
  void readingsWithoutAnEstimateOrAServedLineAreNotCounted() {
    EtaCheck check =
        EtaCheck.of(
            List.of(
                reading(0, 10, 0, -1), reading(5_000, 10, 2, 4_000), reading(10_000, 9, 4, 4_000)));

    assertThat(check.checked()).isZero();
    assertThat(check.meanErrorPercent()).isEqualTo(-1);
  }

  @Test
  void aReadingSurvivesBeingStoredAndReadBackWithItsRatesDerivedFromTheOneBefore() {
    QueueSample before = new QueueSample(1_000, 0, 0, 0, 0, 3, 1, 8, 0, 0, 0, 0, 0);
    QueueSample sample = new QueueSample(3_000, 2, 3, 4, 5, 6, 7, 8, 9_876_543_210L, -1, 0, 0, 0);

    assertThat(QueueSample.decode(sample.encode())).isEqualTo(sample);
    QueueSample withRates = QueueSample.decode(sample.encode()).withRatesSince(before);
    assertThat(withRates.publishedPerSecond()).isEqualTo(1.5);
    assertThat(withRates.completedPerSecond()).isEqualTo(3.0);
    assertThat(withRates.failedPerSecond()).isZero();
  }
}
