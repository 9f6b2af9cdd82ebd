package io.lineup.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.dispatch.BreakerState.State;
import org.junit.jupiter.api.Test;

/** The breaker's transitions, which every instance computes the same from the shared record. */
class BreakerStateTest {
  static final long NOW = 1_790_000_000_000L;

  @Test
  void consecutiveFailuresOpenItAtTheThresholdForTheCoolDown() {
    BreakerState b = BreakerState.closed();
    b = b.afterFailure(3, 30_000, NOW).afterFailure(3, 30_000, NOW);
    assertThat(b.state()).isEqualTo(State.CLOSED);
    assertThat(b.failures()).isEqualTo(2);
    b = b.afterFailure(3, 30_000, NOW);
    assertThat(b.state()).isEqualTo(State.OPEN);
    assertThat(b.openUntil()).isEqualTo(NOW + 30_000);
    // A request sent before it opened fails later: the open breaker keeps its time.
    assertThat(b.afterFailure(3, 30_000, NOW + 10)).isEqualTo(b);
  }

  @Test
  void anAnswerStartsTheCountAgainAndNoThresholdNeverOpens() {
    BreakerState b = BreakerState.closed().afterFailure(3, 1000, NOW).afterFailure(3, 1000, NOW);
    assertThat(b.afterSuccess()).isEqualTo(BreakerState.closed());
    assertThat(BreakerState.closed().afterSuccess().isClean()).isTrue();
    assertThat(BreakerState.closed().afterFailure(0, 1000, NOW).state()).isEqualTo(State.CLOSED);
  }

  @Test
  void afterTheCoolDownOneTaskClaimsTheProbeUntilItsLeaseEnds() {
    BreakerState open = BreakerState.closed().afterFailure(1, 1000, NOW);
    assertThat(open.halfOpenIfDue(NOW + 999)).isEqualTo(open);
    BreakerState half = open.halfOpenIfDue(NOW + 1000);
    assertThat(half.state()).isEqualTo(State.HALF_OPEN);
    assertThat(half.probeFree("shop/images/~1", NOW + 1000)).isTrue();

    BreakerState probing = half.probing("shop/images/~1", NOW + 5000);
    assertThat(probing.probeFree("shop/images/~2", NOW + 4999)).isFalse();
    assertThat(probing.probeFree("shop/images/~1", NOW + 4999)).isTrue();
    // Its instance died: once the claim ends another task may probe.
    assertThat(probing.probeFree("shop/images/~2", NOW + 5000)).isTrue();
    assertThat(probing.withoutProbe("shop/images/~2")).isEqualTo(probing);
    assertThat(probing.withoutProbe("shop/images/~1").probeFree("shop/images/~2", NOW)).isTrue();
  }

  @Test
  void theProbeClosesItOrOpensItForAnotherCoolDown() {
    BreakerState probing =
        BreakerState.closed()
            .afterFailure(1, 1000, NOW)
            .halfOpenIfDue(NOW + 1000)
            .probing("shop/images/~1", NOW + 5000);
    assertThat(probing.afterSuccess()).isEqualTo(BreakerState.closed());
    BreakerState again = probing.afterFailure(1, 1000, NOW + 1200);
    assertThat(again.state()).isEqualTo(State.OPEN);
    assertThat(again.openUntil()).isEqualTo(NOW + 2200);
    assertThat(again.probe()).isEmpty();
  }

  @Test
  void theStoredFormReadsBackWhateverTheTaskIdHolds() {
    BreakerState probing =
        BreakerState.closed()
            .afterFailure(2, 1000, NOW)
            .afterFailure(2, 1000, NOW)
            .halfOpenIfDue(NOW + 1000)
            .probing("shop/images/k:abc:def", NOW + 5000);
    assertThat(BreakerState.fromStored(probing.stored())).isEqualTo(probing);
    // What a server before the shared count wrote: state and time.
    assertThat(BreakerState.fromStored("OPEN:" + NOW))
        .isEqualTo(new BreakerState(State.OPEN, NOW, 0, "", 0));
    assertThat(BreakerState.fromStored("garbage")).isEqualTo(BreakerState.closed());
    assertThat(BreakerState.fromStored(null)).isEqualTo(BreakerState.closed());
  }
}
