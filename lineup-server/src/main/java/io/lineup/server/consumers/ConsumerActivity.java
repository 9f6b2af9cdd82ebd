package io.lineup.server.consumers;

import io.lineup.core.Lineup;
import io.lineup.core.RecordStore;
import io.lineup.core.model.QueueName;
import io.lineup.server.history.QueueHistory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consumers of each queue seen in the last minute, shared by every instance through Redis.
 *
 * <p>Each instance counts what its own requests show (long-polls waiting now, leases and acks in
 * the last minute, per consumer) in memory, and once every {@value #FLUSH_INTERVAL_MS} ms writes
 * its figures to one hash per queue, one field per instance and consumer ({@code
 * <instance>|<consumer>} = {@code last_seen_ms,waiting,leased,acked}) in one HSET. Reading merges
 * the fields of a consumer across instances and leaves out those silent for more than a minute. A
 * consumer silent for a minute is dropped from memory and its field deleted; the hash expires once
 * no instance writes it.
 *
 * <p>It also remembers, per queue, which consumer holds each leased job (one hash: job id →
 * consumer, written with each lease and trimmed as acks come in), for the running view.
 */
public final class ConsumerActivity implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ConsumerActivity.class);

  /** Consumers silent for longer than this are no longer shown: a minute. */
  public static final long WINDOW_MS = 60_000;

  /** How often an instance writes its figures: every second. */
  public static final long FLUSH_INTERVAL_MS = 1_000;

  /** Most consumers an instance follows per queue; more are counted under {@link #OTHERS}. */
  public static final int MAX_CONSUMERS_PER_QUEUE = 100;

  /** The name the consumers beyond {@link #MAX_CONSUMERS_PER_QUEUE} are counted under. */
  public static final String OTHERS = "(others)";

  /**
   * Most entries of a queue's job → consumer hash; a hash found larger (leases that expired or
   * ended through the engine directly leave entries behind) is dropped and starts again.
   */
  public static final long MAX_HOLDERS_PER_QUEUE = 100_000;

  /** A job → consumer hash nobody writes is deleted after the longest lease: 24 h. */
  static final Duration HOLDERS_EXPIRY = Duration.ofHours(24);

  /** Most lease tokens remembered to name the consumer of an ack that names none. */
  static final int MAX_TOKENS_REMEMBERED = 10_000;

  private final Lineup lineup;
  private final String instance;
  private final Map<QueueName, Map<String, Counts>> queues = new ConcurrentHashMap<>();
  private final Map<QueueName, List<String>> settled = new ConcurrentHashMap<>();
  private final Map<String, String> tokens =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
          return size() > MAX_TOKENS_REMEMBERED;
        }
      };
  private volatile boolean closed;
  private Thread flusher;
  private long flushes;

  /** One consumer's figures on this instance. */
  private static final class Counts {
    final AtomicInteger waiting = new AtomicInteger();
    final MinuteCounter leased = new MinuteCounter();
    final MinuteCounter acked = new MinuteCounter();
    volatile long lastSeenMs;
  }

  /**
   * @param lineup the engine
   * @param instance this instance's id, unique among the instances on one Redis
   */
  public ConsumerActivity(Lineup lineup, String instance) {
    this.lineup = lineup;
    this.instance = instance.replace('|', '_');
  }

  /** Starts writing this instance's figures to Redis. */
  public synchronized void start() {
    if (flusher == null) {
      flusher = Thread.ofVirtual().name("lineup-consumers").start(this::loop);
    }
  }

  /** Stops writing; safe to call twice. */
  @Override
  public synchronized void close() {
    closed = true;
    if (flusher != null) {
      flusher.interrupt();
      try {
        flusher.join(Duration.ofSeconds(5));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** A long-poll of {@code consumer} on these queues began; end it with {@link #waitEnded}. */
  public void waitStarted(List<QueueName> on, String consumer) {
    long now = System.currentTimeMillis();
    for (QueueName queue : on) {
      Counts counts = counts(queue, consumer, now);
      counts.waiting.incrementAndGet();
    }
  }

  /** The long-poll begun by {@link #waitStarted} ended. */
  public void waitEnded(List<QueueName> on, String consumer) {
    long now = System.currentTimeMillis();
    for (QueueName queue : on) {
      Counts counts = counts(queue, consumer, now);
      counts.waiting.updateAndGet(n -> Math.max(0, n - 1));
    }
  }

  /**
   * {@code consumer} leased these jobs of {@code queue} with one lease call: counted, and each job
   * recorded as held by it (one HSET, not waited for).
   *
   * @param leases job id → lease token
   */
  public void leased(QueueName queue, String consumer, Map<String, String> leases) {
    long now = System.currentTimeMillis();
    Counts counts = counts(queue, consumer, now);
    counts.leased.add(now, leases.size());
    if (leases.isEmpty()) {
      return;
    }
    Map<String, String> holders = new HashMap<>();
    synchronized (tokens) {
      leases.forEach((id, token) -> {
        tokens.put(token, consumer);
        holders.put(id, consumer);
      });
    }
    holders(queue)
        .putAllAsync(holders)
        .exceptionally(e -> {
          LOG.debug("Could not record the consumer of leases of {}", queue, e);
          return null;
        });
  }

  /**
   * Jobs of {@code queue} were acked with these lease tokens: counted for the consumer that leased
   * them through this instance, else for {@code fallback}.
   *
   * @param acks job id → lease token
   */
  public void acked(QueueName queue, Map<String, String> acks, String fallback) {
    long now = System.currentTimeMillis();
    Map<String, Integer> byConsumer = new HashMap<>();
    synchronized (tokens) {
      acks.forEach((id, token) -> {
        String consumer = tokens.remove(token);
        byConsumer.merge(consumer == null ? fallback : consumer, 1, Integer::sum);
      });
    }
    byConsumer.forEach((consumer, n) -> counts(queue, consumer, now).acked.add(now, n));
    List<String> ids = settled.computeIfAbsent(queue, q -> new ArrayList<>());
    synchronized (ids) {
      if (ids.size() < MAX_TOKENS_REMEMBERED) {
        ids.addAll(acks.keySet());
      }
    }
  }

  /** The consumer each of these jobs was leased by, as recorded (null where unknown). */
  public List<String> holders(QueueName queue, List<String> ids) {
    return holders(queue).getAll(ids);
  }

  /**
   * The consumers of the queue seen in the last minute by any instance, most recently seen first,
   * at most {@link #MAX_CONSUMERS_PER_QUEUE}.
   */
  public List<ConsumerSeen> seen(QueueName queue) {
    long now = System.currentTimeMillis();
    Map<String, ConsumerSeen> merged = new HashMap<>();
    for (var entry : figures(queue).all().entrySet()) {
      int bar = entry.getKey().indexOf('|');
      ConsumerSeen one = ConsumerSeen.decode(entry.getKey().substring(bar + 1), entry.getValue());
      if (bar < 0 || one == null || now - one.lastSeenMs() > WINDOW_MS) {
        continue;
      }
      merged.merge(one.name(), one, ConsumerSeen::plus);
    }
    return merged.values().stream()
        .sorted(Comparator.comparingLong(ConsumerSeen::lastSeenMs).reversed())
        .limit(MAX_CONSUMERS_PER_QUEUE)
        .toList();
  }

  private Counts counts(QueueName queue, String consumer, long now) {
    Map<String, Counts> consumers = queues.computeIfAbsent(queue, q -> new ConcurrentHashMap<>());
    Counts counts = consumers.get(consumer);
    if (counts == null) {
      String name = consumers.size() >= MAX_CONSUMERS_PER_QUEUE ? OTHERS : consumer;
      counts = consumers.computeIfAbsent(name, n -> new Counts());
    }
    counts.lastSeenMs = now;
    return counts;
  }

  private void loop() {
    while (!closed) {
      try {
        Thread.sleep(FLUSH_INTERVAL_MS);
      } catch (InterruptedException e) {
        return;
      }
      try {
        flush(System.currentTimeMillis());
      } catch (RuntimeException e) {
        // Redis away: the figures are written at the next flush.
        LOG.debug("Could not write the consumers' figures", e);
      }
    }
  }

  /** Writes this instance's figures of every queue with a consumer seen in the last minute. */
  void flush(long now) {
    flushes++;
    for (var queue : queues.entrySet()) {
      Map<String, String> fields = new HashMap<>();
      List<String> gone = new ArrayList<>();
      for (var consumer : queue.getValue().entrySet()) {
        Counts c = consumer.getValue();
        String field = instance + "|" + consumer.getKey();
        if (now - c.lastSeenMs > WINDOW_MS && c.waiting.get() == 0) {
          queue.getValue().remove(consumer.getKey());
          gone.add(field);
          continue;
        }
        // A long-poll waiting now is a consumer seen now.
        long seen = c.waiting.get() > 0 ? now : c.lastSeenMs;
        fields.put(
            field,
            new ConsumerSeen(
                    consumer.getKey(),
                    seen,
                    c.waiting.get(),
                    c.leased.total(now),
                    c.acked.total(now))
                .encode());
      }
      RecordStore figures = figures(queue.getKey());
      if (!gone.isEmpty()) {
        figures.deleteAll(gone);
      }
      if (!fields.isEmpty()) {
        figures.putAllAsync(fields).join();
        figures.expireAfter(Duration.ofMillis(WINDOW_MS + 10 * FLUSH_INTERVAL_MS));
      }
      if (queue.getValue().isEmpty()) {
        queues.remove(queue.getKey());
      }
      trimHolders(queue.getKey());
    }
  }

  /** Deletes the acked jobs from the queue's job → consumer hash; drops it when it grew too big. */
  private void trimHolders(QueueName queue) {
    List<String> ids = settled.remove(queue);
    RecordStore holders = holders(queue);
    if (ids != null) {
      List<String> copy;
      synchronized (ids) {
        copy = List.copyOf(ids);
      }
      for (int from = 0; from < copy.size(); from += 1000) {
        holders.deleteAll(copy.subList(from, Math.min(copy.size(), from + 1000)));
      }
    }
    // Once a minute: leases that expired or were settled elsewhere leave entries behind.
    if (flushes % 60 == 0) {
      if (holders.size() > MAX_HOLDERS_PER_QUEUE) {
        LOG.info(
            "Dropping the consumer record of {}'s leases: over {}", queue, MAX_HOLDERS_PER_QUEUE);
        holders.expireAfter(Duration.ofMillis(1));
      } else {
        holders.expireAfter(HOLDERS_EXPIRY);
      }
    }
  }

  private RecordStore figures(QueueName queue) {
    return lineup.records("consumers:" + QueueHistory.digest(queue.toString()));
  }

  private RecordStore holders(QueueName queue) {
    return lineup.records("holders:" + QueueHistory.digest(queue.toString()));
  }
}
