package io.lineup.rooms;

import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.core.model.Eta;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The ETA a room gives before any of its admissions was measured: from its limits alone. */
class RoomEtasTest {
  static Eta eta(RoomSpec spec, long position) {
    return RoomEtas.fromLimits(spec, position);
  }

  static Eta seconds(long point, long low, long high) {
    return new Eta(Duration.ofSeconds(point), Duration.ofSeconds(low), Duration.ofSeconds(high));
  }

  @Test
  void oneSlotTurnsOverAtWorstEveryPassLifetimeSoPlaceSixteenWaitsAtMostSeventeenLifetimes() {
    RoomSpec oneSlot = RoomSpec.of(1).withPassTtlMs(20_000);

    assertThat(eta(oneSlot, 16)).isEqualTo(seconds(170, 0, 340));
    assertThat(eta(oneSlot, 0)).isEqualTo(seconds(10, 0, 20));
  }

  @Test
  void manySlotsTurnOverTogetherSoAPlaceWaitsTheLifetimesOfItsRoundOfSlots() {
    RoomSpec tenSlots = RoomSpec.of(10).withPassTtlMs(20_000);

    assertThat(eta(tenSlots, 0)).isEqualTo(seconds(10, 0, 20));
    assertThat(eta(tenSlots, 9)).isEqualTo(seconds(10, 0, 20));
    assertThat(eta(tenSlots, 16)).isEqualTo(seconds(20, 0, 40));
  }

  @Test
  void anAdmitRateBoundsTheWaitFromBelowAndItsWorstCaseFromAbove() {
    RoomSpec rated =
        new RoomSpec(
            100, 6, 60_000, false, RoomSpec.Method.FIFO, 0, RoomSpec.DEFAULT_GRACE_MS, false);

    // 16 ahead of 6 a minute: two whole minutes at least, three at worst.
    assertThat(eta(rated, 16)).isEqualTo(seconds(120, 120, 180));
    // The first six may go in this minute.
    assertThat(eta(rated, 5)).isEqualTo(seconds(30, 0, 60));
  }
}
