package io.lineup.archive;

import io.lineup.core.ArchiveOutbox;
import io.lineup.core.Lineup;
import io.lineup.core.model.OutboxEntry;
import io.lineup.core.model.QueueName;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies every queue's archive outbox into the database, on one thread. Per queue and round: read
 * entries holding about a batch of jobs through the consumer group {@value #GROUP} (this instance
 * is the consumer), upsert the jobs in one transaction, commit, then acknowledge and delete the
 * entries in Redis. A crash between the commit and the acknowledgement leaves the entries pending;
 * they are written again (the upsert makes that harmless) by this consumer after a restart under
 * the same name, or by another instance once they have been idle for {@link
 * ArchiveSettings#claimIdle()}.
 *
 * <p>While the database or Redis fails, the archiver retries with a backoff from 100 ms to 5 s and
 * nothing is acknowledged; the jobs' own scripts never wait for it, and the outbox of each queue
 * holds at most {@link ArchiveSettings#outboxMax()} entries meanwhile.
 */
public final class Archiver implements AutoCloseable {
  /**
   * About the most payload and result bytes one read takes into memory (64 MiB), judged by the
   * queue's last batch; a single entry larger than that is still read whole.
   */
  static final long READ_BYTES = 64L << 20;

  /** The consumer group every archiver reads the outboxes with. */
  public static final String GROUP = "lineup-archivers";

  private static final Logger LOG = LoggerFactory.getLogger(Archiver.class);
  private static final Duration QUEUE_REFRESH = Duration.ofSeconds(1);
  private static final Duration ENABLE_REFRESH = Duration.ofMinutes(1);
  private static final Duration QUEUE_TURN = Duration.ofSeconds(1);
  private static final long BACKOFF_MIN_MS = 100;
  private static final long BACKOFF_MAX_MS = 5_000;

  /**
   * Called after a batch was committed and before it is acknowledged. For tests that stop an
   * archiver exactly there (a hook that throws an {@link Error} ends the archiver's thread at once,
   * as a crash would); production passes {@link #NONE}.
   */
  @FunctionalInterface
  public interface AfterCommit {
    /** The batch of {@code queue} was committed. */
    void committed(QueueName queue, List<OutboxEntry> entries);
  }

  /** The hook that does nothing. */
  public static final AfterCommit NONE = (queue, entries) -> {};

  private final Lineup lineup;
  private final ArchiveOutbox outbox;
  private final ArchiveDatabase database;
  private final ArchiveWriter writer;
  private final ArchiveSettings settings;
  private final String consumer;
  private final ArchiveStats stats;
  private final AfterCommit afterCommit;
  private final Set<QueueName> enabled = ConcurrentHashMap.newKeySet();
  private final Set<QueueName> ownPending = new HashSet<>();
  private final Map<QueueName, Long> lastClaim = new HashMap<>();
  private final Map<QueueName, Integer> jobsPerEntry = new HashMap<>();
  private final Map<QueueName, Long> bytesPerEntry = new HashMap<>();
  private final Thread thread;
  private volatile boolean running = true;
  private volatile boolean migrated;
  private List<QueueName> queues = List.of();
  private long queuesReadAt;
  private long enabledAt;
  private boolean failing;

  Archiver(
      Lineup lineup,
      ArchiveDatabase database,
      ArchiveSettings settings,
      String consumer,
      ArchiveStats stats,
      AfterCommit afterCommit) {
    this.lineup = lineup;
    this.outbox = lineup.archiveOutbox();
    this.database = database;
    this.writer = new ArchiveWriter(database);
    this.settings = settings;
    this.consumer = consumer;
    this.stats = stats;
    this.afterCommit = afterCommit;
    this.thread = Thread.ofPlatform().name("lineup-archiver").daemon().unstarted(this::run);
  }

  void start() {
    thread.start();
  }

  /** Whether the archiver's thread runs (false after {@link #close()} or a crash). */
  public boolean isAlive() {
    return thread.isAlive();
  }

  /** Whether the schema is in place (the archiver migrates it before its first round). */
  public boolean isReady() {
    return migrated;
  }

  /**
   * Whether {@link #enable} has switched archiving on for the queue (and not been forgotten since:
   * the list is cleared now and then, so that a queue whose settings were dropped is switched on
   * again). Never blocks.
   */
  public boolean isEnabled(QueueName queue) {
    return enabled.contains(queue);
  }

  /**
   * Switches archiving on for a queue now (the archiver also finds new queues by itself, within a
   * second). Called before the first publish to a queue, so its first jobs are archived too.
   */
  public void enable(QueueName queue) {
    if (enabled.add(queue)) {
      try {
        outbox.enable(queue, settings.outboxMax());
      } catch (RuntimeException e) {
        enabled.remove(queue);
        throw e;
      }
    }
  }

  private void run() {
    long backoff = BACKOFF_MIN_MS;
    while (running) {
      try {
        if (!migrated) {
          database.migrate();
          migrated = true;
        }
        boolean more = round();
        if (failing) {
          LOG.info("Archiving resumed: the archive database {} answers again", database.safeUrl());
          failing = false;
        }
        backoff = BACKOFF_MIN_MS;
        if (!more) {
          pause(settings.pollInterval().toMillis());
        }
      } catch (SQLException | RuntimeException e) {
        if (!running) {
          break;
        }
        stats.failed();
        ownPending.addAll(queues);
        if (!failing) {
          LOG.warn(
              "Archiving waits: {} (retrying every {} to {} ms; the outboxes keep the ended jobs"
                  + " meanwhile)",
              safeMessage(e),
              BACKOFF_MIN_MS,
              BACKOFF_MAX_MS);
          failing = true;
        }
        pause(backoff);
        backoff = Math.min(BACKOFF_MAX_MS, backoff * 2);
      }
    }
  }

  /** One pass over the queues; returns whether some queue had a full batch (more is waiting). */
  private boolean round() throws SQLException {
    long now = System.currentTimeMillis();
    if (now - queuesReadAt >= QUEUE_REFRESH.toMillis()) {
      List<QueueName> known = lineup.queues();
      if (queuesReadAt == 0) {
        ownPending.addAll(known); // left pending by an earlier life under the same name
      }
      queues = known;
      queuesReadAt = now;
    }
    if (now - enabledAt >= ENABLE_REFRESH.toMillis()) {
      enabled.clear(); // switched on again, in case a queue's settings were dropped
      enabledAt = now;
    }
    boolean more = false;
    for (QueueName queue : queues) {
      if (!running) {
        break;
      }
      enable(queue);
      more |= archive(queue, now);
    }
    return more;
  }

  /**
   * Archives the queue's entries, batch after batch while they come full, for at most {@link
   * #QUEUE_TURN} (then the other queues get their turn); returns whether more may be waiting.
   */
  private boolean archive(QueueName queue, long now) throws SQLException {
    long turnEnds = System.nanoTime() + QUEUE_TURN.toNanos();
    boolean full;
    do {
      full = archiveBatch(queue, now);
    } while (full && running && System.nanoTime() < turnEnds);
    return full;
  }

  private boolean archiveBatch(QueueName queue, long now) throws SQLException {
    int size = entriesPerBatch(queue);
    List<OutboxEntry> batch = List.of();
    if (ownPending.contains(queue)) {
      batch = outbox.readPending(queue, GROUP, consumer, size);
      if (batch.isEmpty()) {
        ownPending.remove(queue);
      }
    }
    if (batch.isEmpty() && now - lastClaim.getOrDefault(queue, 0L) >= claimEvery()) {
      lastClaim.put(queue, now);
      batch = outbox.claimIdle(queue, GROUP, consumer, settings.claimIdle(), size);
    }
    if (batch.isEmpty()) {
      batch = outbox.readNew(queue, GROUP, consumer, size);
    }
    if (batch.isEmpty()) {
      return false;
    }
    // Entries read hold more jobs than judged when their calls ended more: each transaction
    // still writes at most a batch. The entries are acknowledged once all of them are committed.
    int most = settings.batchSize();
    for (int from = 0; from < batch.size(); from += most) {
      writer.write(batch.subList(from, Math.min(batch.size(), from + most)));
    }
    stats.written(batch.size());
    afterCommit.committed(queue, batch);
    List<String> entryIds = entryIds(batch);
    outbox.acknowledge(queue, GROUP, batch);
    jobsPerEntry.put(queue, (batch.size() + entryIds.size() - 1) / entryIds.size());
    bytesPerEntry.put(queue, bytesOf(batch) / entryIds.size() + 1);
    return entryIds.size() == size;
  }

  /**
   * How many outbox entries to read so a batch holds about {@link ArchiveSettings#batchSize()}
   * jobs: an entry holds the jobs one script call ended (one for a single ack, a lease batch for a
   * worker's acks), judged by the queue's last batch. Fewer when the last batch's payloads and
   * results were large, so a read holds about {@link #READ_BYTES} of them at most (unless one entry
   * alone holds more).
   */
  private int entriesPerBatch(QueueName queue) {
    Integer perEntry = jobsPerEntry.get(queue);
    if (perEntry == null) {
      // No batch read yet: judged by what the outbox holds now.
      long entries = outbox.entryCount(queue);
      perEntry = entries == 0 ? 1 : (int) Math.ceil((double) outbox.length(queue) / entries);
    }
    int byJobs = Math.max(1, settings.batchSize() / Math.max(1, perEntry));
    long bytes = bytesPerEntry.getOrDefault(queue, 1L);
    return (int) Math.max(1, Math.min(byJobs, READ_BYTES / bytes));
  }

  /** The payload and result bytes a batch holds. */
  private static long bytesOf(List<OutboxEntry> batch) {
    long bytes = 0;
    for (OutboxEntry entry : batch) {
      bytes += entry.payload() == null ? 0 : entry.payload().length;
      bytes += entry.result() == null ? 0 : entry.result().length;
    }
    return bytes;
  }

  /** The distinct entry ids of a batch, in order (the jobs of one entry follow each other). */
  private static List<String> entryIds(List<OutboxEntry> batch) {
    List<String> ids = new ArrayList<>();
    String last = null;
    for (OutboxEntry entry : batch) {
      if (!entry.entryId().equals(last)) {
        last = entry.entryId();
        ids.add(last);
      }
    }
    return ids;
  }

  private long claimEvery() {
    return Math.max(100, settings.claimIdle().toMillis() / 2);
  }

  private void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      running = false;
    }
  }

  /**
   * What failed, for the log: the deepest cause's message (a refused connection, a timeout), never
   * the statement, whose text may carry job payloads; URLs are cut to {@link
   * ArchiveSettings#safeUrl()}.
   */
  private String safeMessage(Exception e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root.getClass().getSimpleName() + ": " + root.getMessage();
    if (message.length() > 300) {
      message = message.substring(0, 300) + "...";
    }
    return message.replace(settings.jdbcUrl(), settings.safeUrl());
  }

  /** Stops the thread after its current batch (waits up to 10 s). */
  @Override
  public void close() {
    running = false;
    thread.interrupt();
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
