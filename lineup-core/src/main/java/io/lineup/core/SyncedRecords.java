package io.lineup.core;

import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.LineupException;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This instance's copy of one {@link RecordStore} collection, parsed into typed values: read again
 * every interval on a virtual thread of its own, and at once by {@link #syncNow} (after a local
 * write), so that what another instance wrote shows here within one interval.
 *
 * <p>A sync reads every record's text (one command) but parses only the records whose text changed
 * since the last sync. A record whose new text does not parse keeps its last good value in the
 * snapshot, so that an instance that cannot read what a newer version wrote (during a rolling
 * upgrade) keeps serving with what it last could read rather than dropping the record; a record
 * that never parsed is absent; a deleted record is removed, whether its text parsed or not. A text
 * that does not parse is logged once (not every interval) and parsed again only once it changes.
 * While Redis does not answer, the last snapshot stays and the next interval tries again. Listeners
 * hear which ids were added, changed or removed by each sync; sync listeners hear every sync,
 * changed or not (for work that follows the clock as well as the records, such as a state kept
 * elsewhere that each interval looks at again).
 *
 * @param <T> the parsed value of a record
 */
public final class SyncedRecords<T> implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SyncedRecords.class);

  /**
   * Turns a stored record into its value.
   *
   * @param <T> the parsed value
   */
  @FunctionalInterface
  public interface Parser<T> {
    /**
     * The value of a record.
     *
     * @param id the record's id
     * @param text the record's stored text
     * @return the value, never null
     * @throws RuntimeException when the record is not one of these values (its last good value, if
     *     any, then stays)
     */
    T parse(String id, String text);
  }

  /**
   * What one sync changed in the snapshot.
   *
   * @param added ids that were not in the snapshot
   * @param changed ids whose value was parsed from a new text (a new text that does not parse
   *     changes nothing)
   * @param removed ids that were deleted
   */
  public record Changes(Set<String> added, Set<String> changed, Set<String> removed) {
    /** Copies the sets (unmodifiable). */
    public Changes {
      added = Set.copyOf(added);
      changed = Set.copyOf(changed);
      removed = Set.copyOf(removed);
    }

    /** Whether the sync changed nothing. */
    public boolean isEmpty() {
      return added.isEmpty() && changed.isEmpty() && removed.isEmpty();
    }
  }

  /** A parsed record and the text it was parsed from. */
  private record Entry<T>(String text, T value) {}

  private final RecordStore store;
  private final Parser<T> parser;
  private final Duration interval;
  private final List<Consumer<Changes>> listeners = new CopyOnWriteArrayList<>();
  private final List<Consumer<Map<String, T>>> syncListeners = new CopyOnWriteArrayList<>();
  private volatile Map<String, Entry<T>> entries = Map.of();
  private volatile Map<String, T> snapshot = Map.of();

  /**
   * The text of each record that did not parse and has not parsed since, so that it is logged once,
   * not every sync.
   */
  private final Map<String, String> unreadable = new HashMap<>();

  private volatile boolean closed;
  private Thread syncer;

  private SyncedRecords(RecordStore store, Parser<T> parser, Duration interval) {
    this.store = store;
    this.parser = parser;
    this.interval = interval;
  }

  /**
   * Reads the collection once (when Redis answers; otherwise the snapshot starts empty) and starts
   * reading it again every {@code interval}.
   *
   * @param store the collection
   * @param parser turns each record into its value
   * @param interval time between two syncs, from 1 ms
   * @return the running copy; {@link #close} stops it
   * @throws InvalidArgumentException when an argument is null or the interval under 1 ms
   */
  public static <T> SyncedRecords<T> start(RecordStore store, Parser<T> parser, Duration interval) {
    if (store == null || parser == null) {
      throw new InvalidArgumentException("records", "the store and the parser must not be null");
    }
    if (interval == null || interval.toMillis() < 1) {
      throw new InvalidArgumentException("interval", "must be at least 1 ms");
    }
    SyncedRecords<T> synced = new SyncedRecords<>(store, parser, interval);
    synced.syncQuietly();
    synced.syncer = Thread.ofVirtual().name("lineup-synced-records").start(synced::loop);
    return synced;
  }

  /** The record store this copy reads. */
  public RecordStore store() {
    return store;
  }

  /**
   * Every parsed record by id, as of the last sync: an unmodifiable map that does not change, and
   * the same object until a sync changes something.
   */
  public Map<String, T> snapshot() {
    return snapshot;
  }

  /** The parsed record with this id as of the last sync, or empty. */
  public Optional<T> get(String id) {
    return Optional.ofNullable(snapshot.get(id));
  }

  /**
   * Registers a listener of every later sync that changed something. Listeners are called on the
   * syncing thread, after the snapshot changed; one that throws is logged and the others still run.
   */
  public void addListener(Consumer<Changes> listener) {
    listeners.add(listener);
  }

  /**
   * Registers a listener of every later sync that read the collection, whether it changed something
   * or not, called with the snapshot that sync left (after the listeners of changes). Called on the
   * syncing thread; one that throws is logged and the others still run. A {@link #syncNow} during
   * the interval's sync may call it at the same time or out of order: a listener that must act on
   * the newest copy reads {@link #snapshot()} under a lock of its own.
   */
  public void addSyncListener(Consumer<Map<String, T>> listener) {
    syncListeners.add(listener);
  }

  /**
   * Reads the collection now (after this instance wrote to it, so that its own change shows at
   * once).
   *
   * @return what changed
   * @throws RedisUnavailableException when Redis does not answer in time (the snapshot stays)
   */
  public Changes syncNow() {
    Changes changes;
    Map<String, T> synced;
    synchronized (this) {
      changes = apply(store.all());
      synced = snapshot;
    }
    if (!changes.isEmpty()) {
      tell(listeners, changes);
    }
    tell(syncListeners, synced);
    return changes;
  }

  private static <E> void tell(List<Consumer<E>> listeners, E event) {
    for (Consumer<E> listener : listeners) {
      try {
        listener.accept(event);
      } catch (RuntimeException e) {
        LOG.warn("A listener of synced records failed: {}", e.toString());
      }
    }
  }

  private Changes apply(Map<String, String> texts) {
    Map<String, Entry<T>> before = entries;
    Map<String, Entry<T>> after = new LinkedHashMap<>();
    Set<String> added = new LinkedHashSet<>();
    Set<String> changed = new LinkedHashSet<>();
    for (var record : texts.entrySet()) {
      String id = record.getKey();
      String text = record.getValue();
      Entry<T> known = before.get(id);
      if (known != null && known.text().equals(text)) {
        after.put(id, known);
        // Back to the last good text: should it turn bad again, that is news worth a log line.
        unreadable.remove(id);
        continue;
      }
      Entry<T> parsed = parse(id, text, known != null);
      if (parsed == null) {
        if (known != null) {
          after.put(id, known); // a text this version cannot read: the last good value serves on
        }
        continue;
      }
      after.put(id, parsed);
      (known == null ? added : changed).add(id);
    }
    Set<String> removed = new LinkedHashSet<>(before.keySet());
    removed.removeAll(after.keySet());
    unreadable.keySet().retainAll(texts.keySet());
    Changes changes = new Changes(added, changed, removed);
    if (changes.isEmpty()) {
      return changes; // the snapshot stays the same object: readers may compare it by identity
    }
    Map<String, T> values = new LinkedHashMap<>();
    after.forEach((id, entry) -> values.put(id, entry.value()));
    entries = after;
    snapshot = Collections.unmodifiableMap(values);
    return changes;
  }

  /**
   * The record parsed from its text, or null when the text does not parse (logged the first time
   * only, then not parsed again until it changes).
   */
  private Entry<T> parse(String id, String text, boolean hasGoodValue) {
    if (text.equals(unreadable.get(id))) {
      return null;
    }
    T value;
    try {
      value = parser.parse(id, text);
    } catch (RuntimeException e) {
      unreadable.put(id, text);
      if (hasGoodValue) {
        LOG.warn(
            "Keeping the last good value of the record {}, whose new text is unreadable: {}",
            id,
            e.toString());
      } else {
        LOG.warn("Skipping the unreadable record {}: {}", id, e.toString());
      }
      return null;
    }
    unreadable.remove(id);
    return new Entry<>(text, value);
  }

  private void syncQuietly() {
    try {
      syncNow();
    } catch (LineupException e) {
      // Redis is away: the last snapshot stays, and the next interval tries again.
      LOG.debug("Syncing records failed, keeping the last copy: {}", e.toString());
    } catch (RuntimeException e) {
      LOG.warn("Syncing records failed, keeping the last copy: {}", e.toString());
    }
  }

  private void loop() {
    while (!closed) {
      try {
        Thread.sleep(interval);
      } catch (InterruptedException e) {
        return;
      }
      if (!closed) {
        syncQuietly();
      }
    }
  }

  /** Stops syncing; the snapshot stays readable. Waits up to 5 s for a sync under way to end. */
  @Override
  public void close() {
    closed = true;
    Thread t = syncer;
    if (t != null) {
      t.interrupt();
      try {
        t.join(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
