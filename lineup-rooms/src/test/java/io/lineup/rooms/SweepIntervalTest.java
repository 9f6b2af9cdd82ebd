package io.lineup.rooms;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** How often an instance sweeps: as often as the shortest grace of its rooms needs, no more. */
class SweepIntervalTest {
  static RoomSpec withGrace(long graceMs) {
    return RoomSpec.of(10).withGraceMs(graceMs);
  }

  @Test
  void anInstanceSweepsEveryTwentiethOfItsShortestGrace() {
    assertThat(AbandonmentSweeper.interval(List.of(withGrace(60_000), withGrace(100_000))))
        .isEqualTo(3_000);
  }

  @Test
  void theDefaultGraceOfFiveMinutesIsSweptEveryFifteenSecondsInsteadOfFourTimesASecond() {
    assertThat(AbandonmentSweeper.interval(List.of(withGrace(RoomSpec.DEFAULT_GRACE_MS))))
        .isEqualTo(15_000);
  }

  @Test
  void aShortGraceIsSweptEveryQuarterSecondAtMost() {
    assertThat(
            AbandonmentSweeper.interval(
                List.of(withGrace(RoomSpec.MIN_GRACE_MS), withGrace(3_600_000))))
        .isEqualTo(Rooms.SWEEP_INTERVAL_MS);
  }

  @Test
  void anInstanceWithoutRoomsSweepsAtTheLongestInterval() {
    assertThat(AbandonmentSweeper.interval(List.of())).isEqualTo(Rooms.SWEEP_INTERVAL_MAX_MS);
  }
}
