package io.lineup.archive;

import io.lineup.core.ArchiveOutbox;
import io.lineup.core.Lineup;
import io.lineup.core.model.QueueName;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The archive of one Lineup instance: the database, the {@link Archiver} that copies the queues'
 * outboxes into it, the {@link ArchiveRetention} that deletes old rows, and the {@link
 * ArchiveReader} for lookups. Several instances may run on one Redis and one database: they share
 * the outboxes through one consumer group and take turns at retention.
 *
 * <pre>{@code
 * try (Archive archive = Archive.start(lineup, ArchiveSettings.defaults(url), "instance-1")) {
 *   Optional<ArchivedJob> job = archive.reader().find(queue, id);
 * }
 * }</pre>
 */
public final class Archive implements AutoCloseable {
  private final Lineup lineup;
  private final ArchiveDatabase database;
  private final ArchiveStats stats = new ArchiveStats();
  private final List<Archiver> archivers = new ArrayList<>();
  private final ArchiveRetention retention;
  private final ArchiveReader reader;

  private Archive(
      Lineup lineup, ArchiveSettings settings, String instanceId, Archiver.AfterCommit hook) {
    this.lineup = lineup;
    this.database = ArchiveDatabase.open(settings);
    for (int i = 0; i < settings.writers(); i++) {
      // One consumer per thread: the group hands each entry to one of them.
      String consumer = settings.writers() == 1 ? instanceId : instanceId + "#" + (i + 1);
      archivers.add(new Archiver(lineup, database, settings, consumer, stats, hook));
    }
    this.retention =
        new ArchiveRetention(archivers.get(0), lineup, database, settings, instanceId, stats);
    this.reader = new ArchiveReader(database);
  }

  /**
   * Opens the database pool and starts the archiver and retention threads. Nothing waits for the
   * database: the archiver creates or upgrades the schema when it first reaches it, and retries
   * while it cannot.
   *
   * @param instanceId this instance's name among the archivers (the consumer in the group); an
   *     instance restarted under the same name resumes what it had read and not acknowledged
   * @throws IllegalArgumentException when the JDBC URL is not of a supported database
   */
  public static Archive start(Lineup lineup, ArchiveSettings settings, String instanceId) {
    return start(lineup, settings, instanceId, Archiver.NONE);
  }

  /**
   * {@link #start(Lineup, ArchiveSettings, String)} with a hook called between each commit and its
   * acknowledgement (for tests that crash the archiver there).
   */
  public static Archive start(
      Lineup lineup, ArchiveSettings settings, String instanceId, Archiver.AfterCommit hook) {
    Archive archive = new Archive(lineup, settings, instanceId, hook);
    archive.archivers.forEach(Archiver::start);
    archive.retention.start();
    return archive;
  }

  /** Lookups and listings. */
  public ArchiveReader reader() {
    return reader;
  }

  /** This instance's counters. */
  public ArchiveStats stats() {
    return stats;
  }

  /**
   * The first archiver thread (whether it runs and the schema is ready, switching a queue on before
   * its first publish); with one writer, the only one.
   */
  public Archiver archiver() {
    return archivers.get(0);
  }

  /** Every archiver thread of this instance ({@link ArchiveSettings#writers()}). */
  public List<Archiver> archivers() {
    return List.copyOf(archivers);
  }

  /** Retention (a round on demand, for tests and tools). */
  public ArchiveRetention retention() {
    return retention;
  }

  /** The database (its dialect and pool). */
  public ArchiveDatabase database() {
    return database;
  }

  /**
   * How long the oldest entry still in any queue's outbox has waited (by this host's clock against
   * the Redis time the entry was added), or zero when every outbox is empty: the archive's lag.
   */
  public Duration lag() {
    ArchiveOutbox outbox = lineup.archiveOutbox();
    long now = System.currentTimeMillis();
    long oldest = now;
    for (QueueName queue : lineup.queues()) {
      Optional<Instant> at = outbox.oldestEntryAt(queue);
      if (at.isPresent()) {
        oldest = Math.min(oldest, at.get().toEpochMilli());
      }
    }
    return Duration.ofMillis(Math.max(0, now - oldest));
  }

  /** Ended jobs in all outboxes now (read or not, not yet acknowledged). */
  public long outboxLength() {
    ArchiveOutbox outbox = lineup.archiveOutbox();
    long total = 0;
    for (QueueName queue : lineup.queues()) {
      total += outbox.length(queue);
    }
    return total;
  }

  /** Ends that found their queue's outbox full and were not archived, over all queues, ever. */
  public long outboxDropped() {
    ArchiveOutbox outbox = lineup.archiveOutbox();
    long total = 0;
    for (QueueName queue : lineup.queues()) {
      total += outbox.dropped(queue);
    }
    return total;
  }

  /** Stops the threads (after their current batch) and closes the pool. */
  @Override
  public void close() {
    archivers.forEach(Archiver::close);
    retention.close();
    database.close();
  }
}
