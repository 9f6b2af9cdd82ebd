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
  private final TicketPolls tickets;

  RoomCatalog(
      Lineup lineup,
      RoomSettingsStore settings,
      RoomSigningKeys signingKeys,
      RoomEtas etas,
      AdmissionTicker admissions,
      PreQueue preQueue,
      TicketPolls tickets) {
    this.lineup = lineup;
    this.settings = settings;
    this.signingKeys = signingKeys;
    this.etas = etas;
    this.admissions = admissions;
    this.preQueue = preQueue;
    this.tickets = tickets;
  }

  /** Creates or replaces a room; returns true when created. */
  boolean put(RoomKey key, RoomSpec spec) {
    long now = System.currentTimeMillis();
    Optional<RoomRecord> before = settings.stored(key);
    RoomRecord record = new RoomRecord(spec, before.map(RoomRecord::createdAt).orElse(now), now);
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
    signingKeys.keySet(key, true);
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

  /** Deletes a room (see {@link Room#delete}); returns whether it existed. */
  boolean delete(RoomKey key) {
    if (!settings.delete(key)) {
      return false;
    }
    etas.forget(key);
    admissions.open(key);
    lineup.pause(key.queue());
    signingKeys.delete(key);
    for (var e : lineup.peek(key.queue(), 0, 1000)) {
      tickets.cancelQuietly(key, e.id());
    }
    return true;
  }
}
