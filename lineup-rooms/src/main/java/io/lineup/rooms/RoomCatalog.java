package io.lineup.rooms;

import io.lineup.core.Lineup;
import io.lineup.core.model.QueueSettings;
import io.lineup.core.model.QueueStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The rooms themselves: creating or changing one (its queue's limits follow at once on every
 * instance), reading its settings and counts, listing a namespace's, and deleting one.
 */
final class RoomCatalog {
  private final Lineup lineup;
  private final RoomSettingsStore settings;
  private final RoomSigningKeys signingKeys;
  private final RoomEtas etas;
  private final AdmissionTicker admissions;
  private final PreQueue preQueue;
  private final RoomGrants grants;
  private final DeletedRoomTickets deleted;

  RoomCatalog(
      Lineup lineup,
      RoomSettingsStore settings,
      RoomSigningKeys signingKeys,
      RoomEtas etas,
      AdmissionTicker admissions,
      PreQueue preQueue,
      RoomGrants grants,
      DeletedRoomTickets deleted) {
    this.lineup = lineup;
    this.settings = settings;
    this.signingKeys = signingKeys;
    this.etas = etas;
    this.admissions = admissions;
    this.preQueue = preQueue;
    this.grants = grants;
    this.deleted = deleted;
  }

  /**
   * Creates or replaces a room; returns true when created. A room created where one of the same
   * name was deleted is the next generation and starts empty: its keys are made (replacing the
   * predecessor's tombstone) before anything else, then what is left in its queue (a deletion that
   * stopped half-way may have left tickets) is ended as the predecessor's, then its queue's fence
   * becomes the new generation (joins bound to it may publish from now on), and only then is its
   * queue opened and its record written. A room replaced in the same generation keeps its fence;
   * one put before rooms set fences is given its generation, unless a deletion's fence is there
   * already.
   */
  boolean put(RoomKey key, RoomSpec spec) {
    long now = System.currentTimeMillis();
    Optional<RoomRecord> before = settings.stored(key);
    long generation = signingKeys.create(key);
    if (before.isEmpty() || before.get().generation() != generation) {
      deleted.endAll(key, generation - 1);
      lineup.setFence(key.queue(), generation);
      before = Optional.empty();
    } else {
      lineup.setFenceIfAbsent(key.queue(), generation);
    }
    RoomRecord record =
        new RoomRecord(spec, before.map(RoomRecord::createdAt).orElse(now), now, generation);
    boolean passthrough = spec.method() == RoomSpec.Method.PASSTHROUGH;
    lineup.configure(
        key.queue(),
        QueueSettings.builder()
            .concurrencyLimit(passthrough ? 0 : spec.maxActive())
            .rateLimit(passthrough ? 0 : spec.admitPerMinute())
            .ratePeriod(Duration.ofMinutes(1))
            .timeToRun(Duration.ofMillis(spec.passTtlMs()))
            .maxAttempts(1)
            // Until admissions have been measured, a slot frees at the latest when its pass ends.
            .expectedServiceTime(Duration.ofMillis(spec.passTtlMs()))
            .retention(Duration.ofMillis(Rooms.MARKER_KEEP_MS))
            .paused(spec.suspended())
            .build());
    settings.save(key, record);
    etas.forget(key);
    admissions.open(key);
    return before.isEmpty();
  }

  /** The room's settings and counts, or empty when there is no such room. */
  Optional<RoomInfo> info(RoomKey key) {
    Optional<RoomRecord> stored = settings.stored(key);
    if (stored.isEmpty()) {
      return Optional.empty();
    }
    RoomRecord record = stored.get();
    QueueStats stats = lineup.stats(key.queue());
    return Optional.of(
        new RoomInfo(
            key,
            record.spec(),
            record.createdAt(),
            record.updatedAt(),
            stats.ready(),
            stats.leased(),
            preQueue.size(key)));
  }

  /** The rooms of a namespace with their settings and counts, by name. */
  List<RoomInfo> list(String namespace) {
    List<RoomInfo> infos = new ArrayList<>();
    for (String id : settings.records().all().keySet()) {
      if (id.startsWith(namespace + "/")) {
        info(new RoomKey(namespace, id.substring(namespace.length() + 1))).ifPresent(infos::add);
      }
    }
    return infos;
  }

  /**
   * Deletes a room (see {@link Room#delete}); returns whether it existed. In this order: its keys
   * become a tombstone (no pass verifies online, no instance makes a key for it again), its record
   * goes (joins are refused here at once and on other instances from their next sync), its queue's
   * fence becomes {@link TicketJoins#DELETED_FENCE} (a join through an instance that had not synced
   * yet is refused by its own publish from now on), its queue is paused, then every ticket ends
   * with reason {@code room_deleted} and its grants go.
   */
  boolean delete(RoomKey key) {
    Optional<RoomRecord> stored = settings.stored(key);
    if (stored.isEmpty()) {
      return false;
    }
    long generation = stored.get().generation();
    signingKeys.delete(key, generation);
    if (!settings.delete(key)) {
      return false;
    }
    // Before the tickets are ended: every ticket a join writes from now on is refused, so none is
    // left behind the sweep of the line below.
    lineup.setFence(key.queue(), TicketJoins.DELETED_FENCE);
    etas.forget(key);
    admissions.open(key);
    lineup.pause(key.queue());
    deleted.endAll(key, generation);
    grants.deleteAll(key);
    return true;
  }
}
