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
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last 24 hours of every queue, kept in Redis so that every instance shows the same: a reading
 * every second for the last 15 minutes, and a reading every minute for the last 24 hours, in one
 * hash per queue whose fields name the second ({@code s<n>}) or minute ({@code m<n>}) of the
 * reading.
 *
 * <p>One writer per reading: each second, the instance that takes that second's lock samples every
 * queue, and the second's field is written only if absent (HSETNX), so two instances never store
 * two readings of one second, and a reading is keyed by its second, so there is never more than
 * one. The minute's reading is the last second stored in it (the same HSET overwrites it each
 * second): its counts and lifetime counters are the minute's last, and its rates are derived when
 * read from the counters of the minute before, so they are the minute's mean. Readings older than
 * their window are deleted as new ones are written, and a queue's history expires by itself once
 * nobody samples it.
 */
public final class QueueHistory implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(QueueHistory.class);

  /** Time between two second readings of a queue: 1 s. */
  public static final long INTERVAL_MS = 1_000;

  /** Second readings per minute reading. */
  public static final int SECONDS_PER_MINUTE = 60;

  /** Second readings kept: 15 minutes. */
  public static final int FINE_SLOTS = 900;

  /** Minute readings kept: 24 hours. */
  public static final int COARSE_SLOTS = 1440;

  /** Most queues sampled per second (the first by name). */
  public static final int MAX_QUEUES = 1000;

  /** Every this many seconds a sampler also deletes stray readings left by gaps: 10 minutes. */
  static final int SWEEP_EVERY = 600;

  private final Lineup lineup;
  private final long intervalMs;
  private final String holder = UUID.randomUUID().toString();
  private final Map<QueueName, java.util.concurrent.atomic.AtomicLong> reads =
      new ConcurrentHashMap<>();
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
   * @param intervalMs time between second readings, in ms (tests shorten it; a minute reading
   *     covers {@link #SECONDS_PER_MINUTE} of them)
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

  /** The time between two readings of the 15-minute range, in ms. */
  public long intervalMs() {
    return intervalMs;
  }

  /** The window of the 15-minute range, in ms. */
  public long windowMs() {
    return intervalMs * FINE_SLOTS;
  }

  /** The time between two readings of a range, in ms. */
  public long intervalMs(HistoryRange range) {
    return range.minutes() ? intervalMs * SECONDS_PER_MINUTE : intervalMs;
  }

  /** The window of a range, in ms. */
  public long windowMs(HistoryRange range) {
    return intervalMs(range) * range.readings();
  }

  /** How long a queue's hash lives after its last write: the day kept and two minutes. */
  Duration expiry() {
    return Duration.ofMillis(intervalMs * SECONDS_PER_MINUTE * (COARSE_SLOTS + 2));
  }

  private void loop() {
    while (!closed) {
      long now = System.currentTimeMillis();
      try {
        Thread.sleep(intervalMs - Math.floorMod(now, intervalMs) + 1);
      } catch (InterruptedException e) {
        return;
      }
      long slot = System.currentTimeMillis() / intervalMs;
      try {
        // One instance samples each second; the others skip it.
        if (lineup.tryLock("history-" + slot, holder, Duration.ofMillis(10 * intervalMs))) {
          sampleAll(slot);
        }
      } catch (RuntimeException e) {
        // Redis away or slow: this second has no reading; the next one tries again.
        LOG.debug("Could not sample the queues", e);
      }
    }
  }

  /** Reads every queue (up to {@link #MAX_QUEUES}) for one second, unless another did. */
  void sampleAll(long slot) {
    List<QueueName> queues = lineup.queues();
    for (int i = 0; i < queues.size() && i < MAX_QUEUES && !closed; i++) {
      sample(queues.get(i), slot);
    }
  }

  /** Stores one second's reading of a queue unless it is stored already; returns whether. */
  boolean sample(QueueName queue, long slot) {
    RecordStore store = store(queue);
    String field = second(slot);
    QueueStats stats = lineup.stats(queue);
    // Rates are derived when read, from the reading before: none is needed here.
    QueueSample reading = QueueSample.of(stats, null);
    boolean stored = store.putIfAbsent(field, reading.encode());
    reads
        .computeIfAbsent(queue, q -> new java.util.concurrent.atomic.AtomicLong())
        .incrementAndGet();
    if (!stored) {
      return false;
    }
    store(queue, slot, reading);
    return true;
  }

  /**
   * After a second's reading is stored: the minute's reading becomes it, the second that left the
   * window (and, at a minute's start, the minute that left it) is deleted, and now and then the
   * hash's expiry is renewed and stray readings swept.
   */
  void store(QueueName queue, long slot, QueueSample reading) {
    RecordStore store = store(queue);
    store.put(minute(slot / SECONDS_PER_MINUTE), reading.encode());
    List<String> old = new ArrayList<>(2);
    old.add(second(slot - FINE_SLOTS));
    if (slot % SECONDS_PER_MINUTE == 0) {
      old.add(minute(slot / SECONDS_PER_MINUTE - COARSE_SLOTS));
      store.expireAfter(expiry());
    }
    store.deleteAll(old);
    if (slot % SWEEP_EVERY == 0) {
      sweep(store, slot);
    }
  }

  /** Deletes readings left by gaps in sampling (an instance down, Redis away). */
  private static void sweep(RecordStore store, long slot) {
    long firstSecond = slot - FINE_SLOTS + 1;
    long firstMinute = slot / SECONDS_PER_MINUTE - COARSE_SLOTS + 1;
    List<String> stray = new ArrayList<>();
    for (String field : store.all().keySet()) {
      long n = number(field);
      boolean old =
          field.startsWith("s") ? n < firstSecond : field.startsWith("m") ? n < firstMinute : true;
      if (old) {
        stray.add(field);
      }
    }
    for (int from = 0; from < stray.size(); from += 1000) {
      store.deleteAll(stray.subList(from, Math.min(stray.size(), from + 1000)));
    }
  }

  /** How many times this instance read the queue for its history (a test's view of the work). */
  long readings(QueueName queue) {
    var count = reads.get(queue);
    return count == null ? 0 : count.get();
  }

  /** The queue's readings of the last 15 minutes, oldest first. */
  public List<QueueSample> samples(QueueName queue) {
    return samples(queue, HistoryRange.MINUTES_15);
  }

  /**
   * The queue's readings of a range, oldest first, each with its rates since the reading before it:
   * a second reading's are the second's, a minute reading's the minute's means (0 when the reading
   * before is missing, at the start of the window or after a gap of one reading or more the rates
   * cover the gap).
   */
  public List<QueueSample> samples(QueueName queue, HistoryRange range) {
    long nowSlot = System.currentTimeMillis() / intervalMs;
    long last = range.minutes() ? nowSlot / SECONDS_PER_MINUTE : nowSlot;
    // One reading more than the range: the one before the first, for its rates.
    int extra = 1;
    List<String> fields = new ArrayList<>(range.readings() + extra);
    for (long n = last - range.readings() + 1 - extra; n <= last; n++) {
      fields.add(range.minutes() ? minute(n) : second(n));
    }
    List<String> values = store(queue).getAll(fields);
    List<QueueSample> kept = new ArrayList<>(values.size());
    QueueSample before = null;
    for (int i = 0; i < values.size(); i++) {
      QueueSample sample = values.get(i) == null ? null : decodeOrNull(values.get(i));
      if (sample != null && i >= extra) {
        kept.add(sample.withRatesSince(before));
      }
      if (sample != null) {
        before = sample;
      }
    }
    return kept;
  }

  /** The latest second reading of the queue within the last three seconds, or empty. */
  public Optional<QueueSample> latest(QueueName queue) {
    long slot = System.currentTimeMillis() / intervalMs;
    List<String> values =
        store(queue).getAll(List.of(second(slot), second(slot - 1), second(slot - 2)));
    for (String value : values) {
      QueueSample found = value == null ? null : decodeOrNull(value);
      if (found != null) {
        return Optional.of(found);
      }
    }
    return Optional.empty();
  }

  private static String second(long slot) {
    return "s" + slot;
  }

  private static String minute(long minute) {
    return "m" + minute;
  }

  private static long number(String field) {
    try {
      return Long.parseLong(field.substring(1));
    } catch (NumberFormatException | IndexOutOfBoundsException e) {
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
   * characters) is longer than a collection name may be. {@code history2}: the hashes of earlier
   * versions (a reading every 5 s, fields named by bare numbers) are left to expire.
   */
  RecordStore store(QueueName queue) {
    return lineup.records("history2:" + digest(queue.toString()));
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
