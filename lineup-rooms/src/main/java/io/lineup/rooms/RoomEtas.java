package io.lineup.rooms;

import io.lineup.core.Lineup;
import io.lineup.core.model.Eta;
import io.lineup.core.model.EtaEstimator;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ETA estimate of each room's line on this instance, read from the engine at most every {@link
 * #READ_EVERY_MS}: a waiting ticket's ETA is this estimate at its exact position (one ZRANK), so a
 * join or a poll does not read the queue's completions itself. The estimate's inputs change by the
 * second (completions are counted per second), so a reading this young loses nothing.
 *
 * <p>Until the room's admissions have been measured (nothing given back or expired in the engine's
 * last minute), the estimate comes from the room's limits instead ({@link #fromLimits}).
 */
final class RoomEtas {
  /** How long one reading of a room's estimate is used, in ms. */
  static final long READ_EVERY_MS = 250;

  private record Reading(EtaEstimator estimator, long readAt) {}

  private final Lineup lineup;
  private final Map<RoomKey, Reading> readings = new ConcurrentHashMap<>();

  RoomEtas(Lineup lineup) {
    this.lineup = lineup;
  }

  /**
   * The wait of the ticket at this position (0 = next), or null when there is no estimate (the room
   * is suspended).
   */
  Eta eta(RoomKey key, RoomSpec spec, long position, long now) {
    Reading reading = readings.get(key);
    if (reading == null || now - reading.readAt() >= READ_EVERY_MS || now < reading.readAt()) {
      reading = new Reading(lineup.etaEstimator(key.queue()), now);
      readings.put(key, reading);
    }
    EtaEstimator estimator = reading.estimator();
    if (estimator.basis() == EtaEstimator.Basis.MEASURED) {
      return estimator.eta(position).orElse(null);
    }
    return spec.suspended() ? null : fromLimits(spec, position);
  }

  /**
   * The wait of the ticket at {@code position} (0 = next) from the room's limits alone, before any
   * service was measured. Each of the {@code max_active} slots turns over at the latest when its
   * pass ends, so at worst the ticket waits {@code ceil((position + 1) / max_active)} pass
   * lifetimes; with {@code admit_per_minute} it waits at least {@code floor(position /
   * admit_per_minute)} minutes and at worst {@code ceil((position + 1) / admit_per_minute)}. The
   * high end is the larger worst case; the low end the rate's least wait (near 0 without a rate:
   * every pass may be given back at once); the point half the slots' worst case (a visit that takes
   * anything up to the pass's lifetime takes half of it on average), within the band.
   */
  static Eta fromLimits(RoomSpec spec, long position) {
    long places = position + 1;
    long slotWorstMs = Math.ceilDiv(places, spec.maxActive()) * spec.passTtlMs();
    long highMs = slotWorstMs;
    long lowMs = 0;
    if (spec.admitPerMinute() > 0) {
      lowMs = (position / spec.admitPerMinute()) * 60_000L;
      highMs = Math.max(highMs, Math.ceilDiv(places, spec.admitPerMinute()) * 60_000L);
    }
    long pointMs = Math.min(highMs, Math.max(lowMs, slotWorstMs / 2));
    return new Eta(Duration.ofMillis(pointMs), Duration.ofMillis(lowMs), Duration.ofMillis(highMs));
  }

  /** Forgets the room's reading (its settings changed or it was deleted). */
  void forget(RoomKey key) {
    readings.remove(key);
  }
}
