package io.lineup.core;

import io.lineup.core.internal.store.RedisStore;
import io.lineup.core.internal.store.ScriptReplies;
import io.lineup.core.model.AdaptiveMove;
import io.lineup.core.model.AdaptiveSettings;
import io.lineup.core.model.AdaptiveState;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.RedisUnavailableException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Adaptive concurrency limits of queues ({@link AdaptiveSettings}): the limit lives in the queue's
 * meta hash and is moved by one script call per reported signal, so every engine on the Redis
 * shares it and the lease script checks it with the queue's other limits. The ETA follows it: the
 * estimator sees the adaptive limit as the queue's concurrency limit. Get it with {@link
 * Lineup#adaptiveLimits()}; docs/adaptive.md explains the algorithm.
 *
 * <p>Thread-safe. Every method may throw {@link RedisUnavailableException} when Redis cannot be
 * reached.
 */
public final class AdaptiveLimits {
  private final RedisStore store;

  AdaptiveLimits(RedisStore store) {
    this.store = store;
  }

  /**
   * Turns the queue's adaptive limit on, or changes its settings. A limit in force is kept (moved
   * into the new bounds); a new one starts at {@link AdaptiveSettings#initial()}. Consumers waiting
   * for a slot are woken.
   *
   * @return the limit in force now
   */
  public int configure(QueueName queue, AdaptiveSettings settings) {
    if (settings == null) {
      throw new io.lineup.core.model.InvalidArgumentException("adaptive", "is required");
    }
    store.register(queue);
    return (int) store.adaptiveConfigure(queue, settings);
  }

  /** Turns the queue's adaptive limit off: its settings and state are deleted. */
  public void off(QueueName queue) {
    store.adaptiveConfigure(queue, null);
  }

  /**
   * Reports one ended call of the service the queue's jobs call: its latency and answer. One script
   * call; the limit moves at most once per window whichever engines report (see {@link
   * AdaptiveSettings}).
   *
   * @param latency the time until the answer; null when none was measured (nothing was sent)
   * @param status the HTTP status answered (429 and 503 decrease the limit); 0 when none (a timeout
   *     counts by its latency)
   * @param retryAfter the answer's {@code Retry-After}; null when none. With a 429 or 503 it holds
   *     the queue (no lease) for that long, at most {@link AdaptiveSettings#holdCap()}
   * @return what the report did
   */
  public AdaptiveMove report(QueueName queue, Duration latency, int status, Duration retryAfter) {
    ScriptReplies.AdaptiveReportReply reply =
        store.adaptiveReport(
            queue,
            latency == null ? -1 : Math.max(0, latency.toMillis()),
            status,
            retryAfter == null ? -1 : Math.max(0, retryAfter.toMillis()));
    AdaptiveMove.Direction direction =
        switch (reply.move()) {
          case 1 -> AdaptiveMove.Direction.UP;
          case -1 -> AdaptiveMove.Direction.DOWN;
          case 2 -> AdaptiveMove.Direction.HOLD;
          case -2 -> AdaptiveMove.Direction.OFF;
          default -> AdaptiveMove.Direction.NONE;
        };
    return new AdaptiveMove(direction, reply.limit(), reply.reason());
  }

  /** The queue's adaptive limit as it stands; empty when it has none. */
  public Optional<AdaptiveState> read(QueueName queue) {
    return store.adaptiveRead(queue).map(AdaptiveLimits::state);
  }

  private static AdaptiveState state(ScriptReplies.AdaptiveReadReply r) {
    // The starting limit is not kept: it served once, when the limit was made.
    AdaptiveSettings settings =
        new AdaptiveSettings(
            r.min(),
            r.max(),
            r.min(),
            Duration.ofMillis(r.targetMs()),
            Duration.ofMillis(r.windowMs()),
            r.decrease(),
            Duration.ofMillis(r.holdCapMs()));
    return new AdaptiveState(
        settings,
        r.limit(),
        r.reason(),
        r.movedAtMs() == 0 ? null : Instant.ofEpochMilli(r.movedAtMs()),
        r.holdUntilMs() > r.nowMs() ? Instant.ofEpochMilli(r.holdUntilMs()) : null,
        Instant.ofEpochMilli(r.nowMs()));
  }
}
