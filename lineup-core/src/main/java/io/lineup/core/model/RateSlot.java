package io.lineup.core.model;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The answer of {@link io.lineup.core.Lineup#takeRateSlot}: whether a leased job took its slot of
 * the queue's rate at the moment its work starts, and if not, how long to wait before asking again.
 *
 * @param taken whether the slot is taken (always, on a queue without a rate limit)
 * @param at the engine's clock (Redis server time, or the test clock) when the script ran: when
 *     taken, the start the rate log records for the job
 * @param retryAfter zero when taken; else until the oldest other start or lease leaves the rate
 *     period
 */
public record RateSlot(boolean taken, Instant at, Duration retryAfter) {
  public RateSlot {
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(retryAfter, "retryAfter");
  }
}
