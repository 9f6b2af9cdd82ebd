package io.lineup.rooms;

import io.lineup.core.model.Leases;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Remembers, per room, that its last admission attempt on this instance was refused by a limit
 * ({@code max_active} reached, {@code admit_per_minute} used up, or suspended), so that joins and
 * polls do not each try again: until {@link Rooms#ADMIT_INTERVAL_MS} has passed, only the admission
 * ticker (every {@link Rooms#ADMIT_INTERVAL_MS}) and a release on this instance try. A slot freed
 * on another instance is filled by that instance at once; an expired pass by the next tick; so no
 * ticket waits longer than before for a free slot.
 */
final class AdmissionGate {
  private final Map<RoomKey, Long> closedUntil = new ConcurrentHashMap<>();

  /** Whether joins and polls should try to admit tickets of the room now. */
  boolean isOpen(RoomKey key, long now) {
    Long until = closedUntil.get(key);
    return until == null || now >= until;
  }

  /** Records what an admission attempt met. */
  void record(RoomKey key, Leases answer, long now) {
    if (answer.refusal() != null) {
      closedUntil.put(key, now + Rooms.ADMIT_INTERVAL_MS);
    } else {
      closedUntil.remove(key);
    }
  }

  /** Opens the gate (a slot was freed or the room changed). */
  void open(RoomKey key) {
    closedUntil.remove(key);
  }
}
