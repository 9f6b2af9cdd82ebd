package io.lineup.server.history;

import io.lineup.core.Lineup;
import io.lineup.core.RecordStore;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueStats;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last 15 minutes of every queue, kept in Redis so that every instance shows the same: one
 * reading every {@link #INTERVAL_MS} ms per queue, in a hash per queue whose fields are the numbers
 * of the intervals. Every instance samples; the first to store an interval's reading wins (HSETNX),
 * so each interval holds exactly one reading however many instances run. Readings older than the
 * window are deleted, and a queue's history expires by itself once nobody samples it.
 */
public final class QueueHistory implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(QueueHistory.class);

  /** Time between two readings of a queue: 5 s. */
  public static final long INTERVAL_MS = 5_000;

  /** How much history is kept: 15 minutes. */
  public static final long WINDOW_MS = 15 * 60_000;

  /** Most queues sampled per interval (the first by name). */
  public static final int MAX_QUEUES = 1000;

  /** Readings per window. */
  static final long SLOTS = WINDOW_MS / INTERVAL_MS;

  /** A history that nobody writes any more is deleted this long after its last reading. */
  static final Duration EXPIRY = Duration.ofMillis(WINDOW_MS + 2 * INTERVAL_MS);

  private final Lineup lineup;
  private final long intervalMs;
  private volatile boolean closed;
  private Thread sampler;

  /**
   * @param lineup the engine
   */
  public QueueHistory(Lineup lineup) {
    this(lineup, INTERVAL_MS);
  }

  /**
   * @param lineup the engine
   * @param intervalMs time between readings, in ms (tests shorten it; the window keeps {@link
   *     #SLOTS} readings)
   */
  QueueHistory(Lineup lineup, long intervalMs) {
    this.lineup = lineup;
    this.intervalMs = intervalMs;
  }

  /** Starts sampling on this instance. */
  public synchronized void start() {
    if (sampler == null) {
      sampler = Thread.ofVirtual().name("lineup-history").start(this::loop);
    }
  }

  /** Stops sampling; safe to call twice. */
  @Override
  public synchronized void close() {
    closed = true;
    if (sampler != null) {
      sampler.interrupt();
      try {
        sampler.join(Duration.ofSeconds(5));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The time between two readings, in ms. */
  public long intervalMs() {
    return intervalMs;
  }

  /** The window kept, in ms. */
  public long windowMs() {
    return intervalMs * SLOTS;
  }

  private void loop() {
    while (!closed) {
      long now = System.currentTimeMillis();
      try {
        Thread.sleep(intervalMs - Math.floorMod(now, intervalMs) + 1);
      } catch (InterruptedException e) {
        return;
      }
      try {
        sampleAll(System.currentTimeMillis() / intervalMs);
      } catch (RuntimeException e) {
        // Redis away or slow: this interval has no reading; the next one tries again.
        LOG.debug("Could not sample the queues", e);
      }
    }
  }

  /** Reads every queue (up to {@link #MAX_QUEUES}) for one interval, unless another did. */
  void sampleAll(long slot) {
    List<QueueName> queues = lineup.queues();
    for (int i = 0; i < queues.size() && i < MAX_QUEUES && !closed; i++) {
      sample(queues.get(i), slot);
    }
  }

  /** Stores one interval's reading of a queue unless it is stored already; returns whether. */
  boolean sample(QueueName queue, long slot) {
    RecordStore store = store(queue);
    String field = Long.toString(slot);
    if (store.get(field).isPresent()) {
      return false;
    }
    QueueStats stats = lineup.stats(queue);
    QueueSample previous =
        store.get(Long.toString(slot - 1)).map(QueueHistory::decodeOrNull).orElse(null);
    boolean stored = store.putIfAbsent(field, QueueSample.of(stats, previous).encode());
    store.expireAfter(Duration.ofMillis(windowMs() + 2 * intervalMs));
    if (stored) {
      store.delete(Long.toString(slot - SLOTS));
      if (slot % 12 == 0) {
        dropOlderThan(store, slot - SLOTS + 1);
      }
    }
    return stored;
  }

  /** Deletes readings left by gaps in sampling (an instance down, Redis away). */
  private static void dropOlderThan(RecordStore store, long firstKept) {
    for (String field : store.all().keySet()) {
      if (slotOf(field) < firstKept) {
        store.delete(field);
      }
    }
  }

  /** The queue's readings of the window, oldest first. */
  public List<QueueSample> samples(QueueName queue) {
    long firstKept = System.currentTimeMillis() / intervalMs - SLOTS + 1;
    List<Map.Entry<Long, QueueSample>> kept = new ArrayList<>();
    for (var entry : store(queue).all().entrySet()) {
      long slot = slotOf(entry.getKey());
      QueueSample sample = decodeOrNull(entry.getValue());
      if (slot >= firstKept && sample != null) {
        kept.add(Map.entry(slot, sample));
      }
    }
    kept.sort(Map.Entry.comparingByKey());
    return kept.stream().map(Map.Entry::getValue).toList();
  }

  /** The latest reading of the queue within the last two intervals, or empty. */
  public Optional<QueueSample> latest(QueueName queue) {
    RecordStore store = store(queue);
    long slot = System.currentTimeMillis() / intervalMs;
    for (long s = slot; s >= slot - 2; s--) {
      Optional<QueueSample> found = store.get(Long.toString(s)).map(QueueHistory::decodeOrNull);
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  private static long slotOf(String field) {
    try {
      return Long.parseLong(field);
    } catch (NumberFormatException e) {
      return Long.MIN_VALUE;
    }
  }

  private static QueueSample decodeOrNull(String text) {
    try {
      return QueueSample.decode(text);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * The queue's hash. Named by a digest of the queue's name, since a queue name (up to 129
   * characters) is longer than a collection name may be.
   */
  private RecordStore store(QueueName queue) {
    return lineup.records("history:" + digest(queue.toString()));
  }

  /** A short digest of a name (32 base64url characters of its SHA-256), for collection names. */
  public static String digest(String text) {
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(hash).substring(0, 32);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
