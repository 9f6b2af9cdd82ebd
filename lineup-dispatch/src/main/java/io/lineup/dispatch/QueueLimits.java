package io.lineup.dispatch;

import io.lineup.core.Lineup;
import io.lineup.core.model.QueueSettings;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Puts an endpoint's limits in its queue's settings, where the engine checks them atomically in its
 * lease script: an open breaker pauses the queue, a half-open one lets one request run at once, and
 * an adaptive concurrency ({@link AdaptiveConcurrency}) sits under the fixed one.
 */
final class QueueLimits {
  /** What was last applied to an endpoint's queue. */
  private record Applied(EndpointSpec spec, boolean paused, int concurrency) {}

  private final Lineup lineup;
  private final SubmitEtas submitEtas;
  private final AdaptiveConcurrency adaptive;
  private final Map<String, Applied> applied = new ConcurrentHashMap<>();

  QueueLimits(Lineup lineup, SubmitEtas submitEtas, AdaptiveConcurrency adaptive) {
    this.lineup = lineup;
    this.submitEtas = submitEtas;
    this.adaptive = adaptive;
  }

  /**
   * Applies the endpoint's settings under its breaker's state.
   *
   * @param force apply even when this instance applied the same settings last
   */
  void apply(EndpointKey key, EndpointSpec spec, BreakerState breaker, boolean force) {
    BreakerState.State state =
        spec.breakerFailures() == 0 ? BreakerState.State.CLOSED : breaker.state();
    boolean paused = spec.paused() || state == BreakerState.State.OPEN;
    int concurrency = state == BreakerState.State.HALF_OPEN ? 1 : spec.concurrency();
    Applied next = new Applied(spec, paused, concurrency);
    if (!force && next.equals(applied.get(key.recordId()))) {
      return;
    }
    lineup.configure(
        key.queue(),
        QueueSettings.builder()
            .paused(paused)
            .rateLimit(spec.rate())
            .ratePeriod(Duration.ofMillis(spec.enginePeriodMs()))
            .rateBurst(spec.effectiveBurst())
            .concurrencyLimit(concurrency)
            .maxAttempts(spec.maxAttempts())
            .timeToRun(Duration.ofMillis(spec.attemptTimeoutMs() + Dispatcher.LEASE_MARGIN_MS))
            .retention(Duration.ofMillis(spec.retentionMs()))
            // The engine's ETA uses it until it has measured completions; 0 clears it.
            .expectedServiceTime(
                Duration.ofMillis(spec.expectedServiceMs() == null ? 0 : spec.expectedServiceMs()))
            // Per-key limits sit under the endpoint's own: one customer cannot take its whole
            // rate or concurrency. Off, the limits are cleared too, so a key is never held back.
            .fair(spec.fairness().enabled())
            .keyConcurrency(spec.fairness().enabled() ? spec.fairness().keyConcurrency() : 0)
            .keyRate(spec.fairness().enabled() ? spec.fairness().keyRate() : 0)
            .keyRatePeriod(Duration.ofMillis(spec.fairness().keyRatePeriodMs()))
            .keyMaxWaiting(spec.fairness().enabled() ? spec.fairness().keyMaxWaiting() : 0)
            .build());
    // The adaptive limit sits under the concurrency above (the engine takes the lower); a
    // half-open breaker's 1 stays 1 whatever the adaptive limit.
    adaptive.apply(key, spec);
    applied.put(key.recordId(), next);
    submitEtas.forget(key.queue());
  }

  /** Forgets an endpoint this instance no longer follows. */
  void forget(EndpointKey key) {
    applied.remove(key.recordId());
    adaptive.forget(key);
    submitEtas.forget(key.queue());
  }
}
