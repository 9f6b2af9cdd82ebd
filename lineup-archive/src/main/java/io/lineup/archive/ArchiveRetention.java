package io.lineup.archive;

import io.lineup.core.Lineup;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes archive rows whose job ended longer ago than the retention, in small batches by the
 * indexed {@code finished_ms} column, each batch its own short transaction so no lock is held long.
 * One instance at a time: a round runs only on the instance that took the Redis lock {@value #LOCK}
 * (held for the retention interval, not renewed), and stops after {@link #ROUND_BUDGET}.
 */
public final class ArchiveRetention implements AutoCloseable {
  /** The Redis lock that lets one instance at a time run retention. */
  public static final String LOCK = "archive-retention";

  /** Longest a round deletes before it stops (the rest goes in the next round). */
  public static final Duration ROUND_BUDGET = Duration.ofSeconds(20);

  private static final Logger LOG = LoggerFactory.getLogger(ArchiveRetention.class);

  private final Archiver archiver;
  private final Lineup lineup;
  private final ArchiveDatabase database;
  private final ArchiveSettings settings;
  private final String holder;
  private final ArchiveStats stats;
  private final Thread thread;
  private volatile boolean running = true;

  ArchiveRetention(
      Archiver archiver,
      Lineup lineup,
      ArchiveDatabase database,
      ArchiveSettings settings,
      String holder,
      ArchiveStats stats) {
    this.archiver = archiver;
    this.lineup = lineup;
    this.database = database;
    this.settings = settings;
    this.holder = holder;
    this.stats = stats;
    this.thread =
        Thread.ofPlatform().name("lineup-archive-retention").daemon().unstarted(this::run);
  }

  void start() {
    thread.start();
  }

  private void run() {
    while (running) {
      try {
        Duration interval = settings.retentionInterval();
        // The lock outlives a round (ROUND_BUDGET) so two instances never delete at once.
        Duration hold =
            interval.compareTo(ROUND_BUDGET.plusSeconds(5)) > 0
                ? interval
                : ROUND_BUDGET.plusSeconds(5);
        // The archiver creates the schema; until it has, there is nothing to delete.
        if (archiver.isReady() && lineup.tryLock(LOCK, holder, hold)) {
          deleteEndedBefore(Instant.now().minus(settings.retention()));
        }
      } catch (SQLException | RuntimeException e) {
        if (!running) {
          break;
        }
        stats.failed();
        LOG.warn(
            "Archive retention failed this round, retrying next round: {}",
            e.getClass().getSimpleName());
      }
      try {
        Thread.sleep(settings.retentionInterval().toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        running = false;
      }
    }
  }

  /**
   * Deletes the rows whose job ended before {@code cutoff}, batch after batch, until none is left
   * or {@link #ROUND_BUDGET} has passed. Does not take the lock (the background round does).
   *
   * @return how many rows were deleted
   * @throws SQLException when the database fails (rows deleted before stay deleted)
   */
  public long deleteEndedBefore(Instant cutoff) throws SQLException {
    long deadline = System.nanoTime() + ROUND_BUDGET.toNanos();
    long total = 0;
    String sql = database.dialect().deleteOldest();
    try (Connection connection = database.connection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      connection.setAutoCommit(true);
      while (running && System.nanoTime() < deadline) {
        statement.setLong(1, cutoff.toEpochMilli());
        statement.setInt(2, settings.retentionBatchSize());
        int deleted = statement.executeUpdate();
        total += deleted;
        stats.deleted(deleted);
        if (deleted < settings.retentionBatchSize()) {
          break;
        }
      }
    }
    return total;
  }

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
