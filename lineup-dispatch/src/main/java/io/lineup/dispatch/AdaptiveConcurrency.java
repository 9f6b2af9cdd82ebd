package io.lineup.dispatch;

import io.lineup.core.Lineup;
import io.lineup.core.model.AdaptiveMove;
import io.lineup.core.model.AdaptiveState;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The adaptive concurrency of the endpoints this instance follows ({@link EndpointAdaptive}): puts
 * an endpoint's settings on its queue, reports each ended request to the limit every instance
 * shares in Redis (the engine's {@link io.lineup.core.AdaptiveLimits}, one script call per
 * request), and counts the moves this instance's reports made, for the metrics. docs/adaptive.md
 * explains the algorithm.
 */
public final class AdaptiveConcurrency {
  /** The moves this instance's reports made to one endpoint's limit. */
  public record Moves(long up, long down) {}

  private final Lineup lineup;
  private final SubmitEtas submitEtas;
  private final Map<EndpointKey, EndpointAdaptive> followed = new ConcurrentHashMap<>();
  private final Map<EndpointKey, LongAdder[]> moves = new ConcurrentHashMap<>();

  AdaptiveConcurrency(Lineup lineup, SubmitEtas submitEtas) {
    this.lineup = lineup;
    this.submitEtas = submitEtas;
  }

  /** Puts the endpoint's adaptive settings on its queue, or turns them off when it has none. */
  void apply(EndpointKey key, EndpointSpec spec) {
    if (spec.adaptive() == null) {
      if (followed.remove(key) != null || !lineup.adaptiveLimits().read(key.queue()).isEmpty()) {
        lineup.adaptiveLimits().off(key.queue());
      }
      return;
    }
    lineup
        .adaptiveLimits()
        .configure(key.queue(), spec.adaptive().toEngine(spec.retryAfterCapMs()));
    followed.put(key, spec.adaptive());
  }

  /** Forgets an endpoint this instance no longer follows (its queue keeps its limit). */
  void forget(EndpointKey key) {
    followed.remove(key);
    moves.remove(key);
  }

  /**
   * Reports one request that was sent: its time until the answer (or the timeout) and the answer.
   * Nothing happens for an endpoint without adaptive concurrency. When the limit moved, the
   * endpoint's submit ETA is read again at the next submit.
   *
   * @param latencyMs the request's time until its answer or its timeout, in milliseconds
   * @param status the HTTP status answered; 0 for a timeout
   * @param retryAfterMs the answer's {@code Retry-After} in milliseconds; -1 when none
   * @throws io.lineup.core.model.RedisUnavailableException when Redis does not answer
   */
  void report(EndpointKey key, EndpointSpec spec, long latencyMs, int status, long retryAfterMs) {
    if (spec.adaptive() == null) {
      return;
    }
    AdaptiveMove move =
        lineup
            .adaptiveLimits()
            .report(
                key.queue(),
                Duration.ofMillis(latencyMs),
                status,
                retryAfterMs < 0 ? null : Duration.ofMillis(retryAfterMs));
    if (move.direction() == AdaptiveMove.Direction.UP
        || move.direction() == AdaptiveMove.Direction.DOWN) {
      LongAdder[] counts =
          moves.computeIfAbsent(key, k -> new LongAdder[] {new LongAdder(), new LongAdder()});
      counts[move.direction() == AdaptiveMove.Direction.UP ? 0 : 1].increment();
      submitEtas.forget(key.queue());
    } else if (move.direction() == AdaptiveMove.Direction.HOLD) {
      submitEtas.forget(key.queue());
    }
  }

  /**
   * The limit of every endpoint with adaptive concurrency this instance follows, read from Redis
   * now (one call each); an endpoint whose limit cannot be read is left out.
   */
  public Map<EndpointKey, AdaptiveState> limits() {
    Map<EndpointKey, AdaptiveState> limits = new LinkedHashMap<>();
    for (EndpointKey key : followed.keySet()) {
      try {
        lineup.adaptiveLimits().read(key.queue()).ifPresent(state -> limits.put(key, state));
      } catch (RuntimeException unreadable) {
        // Redis away for a moment: this scrape shows the others.
      }
    }
    return limits;
  }

  /** The moves this instance's reports made, by endpoint, since it started. */
  public Map<EndpointKey, Moves> moves() {
    Map<EndpointKey, Moves> view = new LinkedHashMap<>();
    moves.forEach((key, counts) -> view.put(key, new Moves(counts[0].sum(), counts[1].sum())));
    return view;
  }
}
