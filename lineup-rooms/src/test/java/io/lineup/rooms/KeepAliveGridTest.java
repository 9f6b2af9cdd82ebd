package io.lineup.rooms;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Keep-alives of idle streams fall due together, on a grid, never before their period is over. */
class KeepAliveGridTest {
  @Test
  void aKeepAliveFallsDueOnTheFirstGridPointAtLeastOnePeriodAfterTheLastWrite() {
    long period = TicketFollower.KEEP_ALIVE_MS;
    long grid = TicketFollower.KEEP_ALIVE_GRID_MS;
    SplittableRandom random = new SplittableRandom(51);
    for (int i = 0; i < 10_000; i++) {
      long lastSent = 1_700_000_000_000L + random.nextLong(86_400_000L);
      long due = TicketFollower.keepAliveAt(lastSent);
      assertThat(due % grid).as("on the grid").isZero();
      assertThat(due - lastSent)
          .as("after one period, within one grid step")
          .isBetween(period, period + grid - 1);
    }
    assertThat(TicketFollower.keepAliveAt(0)).isEqualTo(period);
    assertThat(TicketFollower.keepAliveAt(1)).isEqualTo(period + grid);
  }

  @Test
  void streamsThatWroteAtDifferentMomentsWithinOneGridStepWakeTogether() {
    long start = 1_700_000_000_000L;
    long first = TicketFollower.keepAliveAt(start + 1);
    for (long t = start + 1; t <= start + TicketFollower.KEEP_ALIVE_GRID_MS; t++) {
      assertThat(TicketFollower.keepAliveAt(t)).isEqualTo(first);
    }
  }
}
