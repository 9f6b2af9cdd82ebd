package io.lineup.core;

import io.lineup.core.internal.store.RedisStore;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.LineupException;
import io.lineup.core.model.OutboxEntry;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.RedisUnavailableException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The archive outbox of each queue: a Redis stream in the queue's own hash slot to which every
 * script that ends jobs (ack, a nack or lease expiry to dead letters, cancel, TTL expiry) adds, in
 * the same atomic call, one stream entry holding an {@link OutboxEntry} for each job it ended,
 * while archiving is on for the queue. An archiver reads it through a consumer group, stores the
 * jobs elsewhere and then {@link #acknowledge acknowledges} their entries, which deletes them;
 * entries of an archiver that died are {@link #claimIdle taken over} by another.
 *
 * <p>Reads count stream entries, and return the jobs they hold: one script call's jobs, so an entry
 * holds one job for a single ack and up to a lease batch for the acks of a worker. The jobs of one
 * stream entry share their {@link OutboxEntry#entryId()}.
 *
 * <p>Archiving is switched on per queue ({@link #enable}), in Redis, so every engine and server
 * that finishes jobs of the queue writes the outbox, whoever started the archiver. The outbox holds
 * at most the given number of jobs: an end that finds it full is not added and is counted ({@link
 * #dropped}); the job ends as usual.
 *
 * <p>Every method may throw {@link RedisUnavailableException} when Redis does not answer.
 */
public final class ArchiveOutbox {
  /** Most stream entries one read, claim or acknowledgement handles. */
  public static final int MAX_BATCH = 10_000;

  /** Largest outbox bound {@link #enable} accepts. */
  public static final long MAX_ENTRIES = 100_000_000L;

  private final RedisStore store;
  private final Set<String> groupsMade = ConcurrentHashMap.newKeySet();

  ArchiveOutbox(RedisStore store) {
    this.store = store;
  }

  /**
   * Switches archiving on for a queue: from now on every job of it that ends adds an entry to its
   * outbox, while the outbox holds fewer than {@code maxEntries} jobs.
   *
   * @throws InvalidArgumentException when maxEntries is outside 1..{@value #MAX_ENTRIES}
   */
  public void enable(QueueName queue, long maxEntries) {
    if (maxEntries < 1 || maxEntries > MAX_ENTRIES) {
      throw new InvalidArgumentException("maxEntries", "must be 1 to " + MAX_ENTRIES);
    }
    store.register(queue);
    store.setArchiveMax(queue, maxEntries);
  }

  /** Switches archiving off for a queue; entries already in the outbox stay until read. */
  public void disable(QueueName queue) {
    store.setArchiveMax(queue, 0);
  }

  /** The queue's outbox bound, or 0 when archiving is off for it. */
  public long maxEntries(QueueName queue) {
    return store.archiveMax(queue);
  }

  /**
   * Reads up to {@code count} stream entries no consumer of the group has read yet, and makes them
   * pending for {@code consumer} until acknowledged; returns the jobs they hold, in the order they
   * ended. Creates the group when it does not exist.
   *
   * @throws InvalidArgumentException when count is outside 1..{@value #MAX_BATCH} or a name is
   *     empty
   */
  public List<OutboxEntry> readNew(QueueName queue, String group, String consumer, int count) {
    return withGroup(
        queue,
        group,
        consumer,
        count,
        () -> store.readOutbox(queue, group, consumer, count, false));
  }

  /**
   * Reads up to {@code count} stream entries already pending for {@code consumer} (read before and
   * not acknowledged, for example because the database refused them), oldest first; returns the
   * jobs they hold.
   *
   * @throws InvalidArgumentException when count is outside 1..{@value #MAX_BATCH} or a name is
   *     empty
   */
  public List<OutboxEntry> readPending(QueueName queue, String group, String consumer, int count) {
    return withGroup(
        queue, group, consumer, count, () -> store.readOutbox(queue, group, consumer, count, true));
  }

  /**
   * Takes over up to {@code count} stream entries pending for any consumer of the group for at
   * least {@code minIdle} (a consumer that died, or a stuck one), making them pending for {@code
   * consumer}; returns the jobs they hold.
   *
   * @throws InvalidArgumentException when count is outside 1..{@value #MAX_BATCH}, a name is empty
   *     or minIdle is negative
   */
  public List<OutboxEntry> claimIdle(
      QueueName queue, String group, String consumer, Duration minIdle, int count) {
    if (minIdle == null || minIdle.isNegative()) {
      throw new InvalidArgumentException("minIdle", "must be 0 or more");
    }
    return withGroup(
        queue,
        group,
        consumer,
        count,
        () -> store.claimOutbox(queue, group, consumer, minIdle, count));
  }

  /**
   * Acknowledges in the group the stream entries that hold these jobs, as read, and deletes them
   * from the outbox with every job they hold, in one step. An entry counts once however many of its
   * jobs are given; entries acknowledged already (by another reader) are skipped.
   *
   * @return how many jobs the entries this call deleted held
   * @throws InvalidArgumentException when the jobs are of more than {@value #MAX_BATCH} entries
   */
  public long acknowledge(QueueName queue, String group, List<OutboxEntry> read) {
    Map<String, Integer> jobsByEntry = new LinkedHashMap<>();
    for (OutboxEntry job : read) {
      jobsByEntry.putIfAbsent(job.entryId(), job.entryJobs());
    }
    if (jobsByEntry.isEmpty()) {
      return 0;
    }
    if (jobsByEntry.size() > MAX_BATCH) {
      throw new InvalidArgumentException(
          "read", "jobs of at most " + MAX_BATCH + " entries per call");
    }
    return store.ackOutbox(queue, name("group", group), jobsByEntry);
  }

  /** How many jobs the queue's outbox holds (read, pending or not). */
  public long length(QueueName queue) {
    return store.outboxLength(queue);
  }

  /** How many stream entries the queue's outbox holds; each holds one or more jobs. */
  public long entryCount(QueueName queue) {
    return store.outboxEntries(queue);
  }

  /**
   * When the oldest entry still in the outbox was added, by the Redis server's clock (its stream
   * id), or empty when the outbox is empty.
   */
  public Optional<Instant> oldestEntryAt(QueueName queue) {
    return store.oldestOutboxEntry(queue);
  }

  /** How many ends found the queue's outbox full and were not archived, ever. */
  public long dropped(QueueName queue) {
    return store.outboxDropped(queue);
  }

  private List<OutboxEntry> withGroup(
      QueueName queue,
      String group,
      String consumer,
      int count,
      java.util.function.Supplier<List<OutboxEntry>> read) {
    name("group", group);
    name("consumer", consumer);
    if (count < 1 || count > MAX_BATCH) {
      throw new InvalidArgumentException("count", "must be 1 to " + MAX_BATCH);
    }
    String made = queue + "#" + group;
    if (!groupsMade.contains(made)) {
      store.createOutboxGroup(queue, group);
      groupsMade.add(made);
    }
    try {
      return read.get();
    } catch (LineupException e) {
      // The outbox key was deleted with its group (a queue's keys dropped): make it again.
      if (String.valueOf(e.getMessage()).contains("NOGROUP")) {
        store.createOutboxGroup(queue, group);
        return read.get();
      }
      throw e;
    }
  }

  private static String name(String field, String value) {
    if (value == null || value.isEmpty() || value.length() > 200) {
      throw new InvalidArgumentException(field, "must be 1 to 200 characters");
    }
    return value;
  }
}
