package io.lineup.rooms;

import io.lineup.core.Lineup;
import io.lineup.core.model.Eta;
import io.lineup.core.model.EtaEstimator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ETA estimate of each room's line on this instance, read from the engine at most every {@link
 * #READ_EVERY_MS}: a waiting ticket's ETA is this estimate at its exact position (one ZRANK), so a
 * join or a poll does not read the queue's completions itself. The estimate's inputs change by the
 * second (completions are counted per second), so a reading this young loses nothing.
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

  /** The wait of the ticket at this position (0 = next), or null when there is no estimate. */
  Eta eta(RoomKey key, long position, long now) {
    Reading reading = readings.get(key);
    if (reading == null || now - reading.readAt() >= READ_EVERY_MS || now < reading.readAt()) {
      reading = new Reading(lineup.etaEstimator(key.queue()), now);
      readings.put(key, reading);
    }
    return reading.estimator().eta(position).orElse(null);
  }

  /** Forgets the room's reading (its settings changed or it was deleted). */
  void forget(RoomKey key) {
    readings.remove(key);
  }
}
