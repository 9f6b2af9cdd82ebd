package io.lineup.archive;

import io.lineup.core.model.OutboxEntry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.List;

/**
 * Writes outbox entries to the archive: one transaction per batch, an idempotent upsert of every
 * row (on PostgreSQL through COPY, {@link PostgresBatch}: straight into the archive, or through a
 * staging table when some job is archived already; elsewhere as one batched statement).
 */
public final class ArchiveWriter {
  private final ArchiveDatabase database;
  private final String upsert;

  /**
   * @param database the archive's database
   */
  public ArchiveWriter(ArchiveDatabase database) {
    this.database = database;
    this.upsert = database.dialect().upsert();
  }

  /**
   * Upserts the entries by (namespace, queue, id) in one transaction and commits it: after it
   * returns every entry is in the database; when it throws, none of them was stored by this call.
   * Writing the same entries again changes nothing.
   *
   * @throws SQLException when the database is unreachable or refuses the batch
   */
  public void write(List<OutboxEntry> entries) throws SQLException {
    if (entries.isEmpty()) {
      return;
    }
    long now = System.currentTimeMillis();
    try (Connection connection = database.connection()) {
      connection.setAutoCommit(false);
      if (database.dialect() == Dialect.POSTGRESQL) {
        try {
          if (!PostgresBatch.insert(connection, entries, now)) {
            // Some job is archived already: that copy aborted the transaction; upsert instead.
            connection.rollback();
            PostgresBatch.merge(connection, entries, now);
          }
          connection.commit();
        } catch (SQLException | RuntimeException e) {
          rollbackQuietly(connection, e);
          throw e;
        }
        return;
      }
      try (PreparedStatement statement = connection.prepareStatement(upsert)) {
        for (OutboxEntry e : entries) {
          int i = 1;
          statement.setString(i++, e.queue().namespace());
          statement.setString(i++, e.queue().name());
          statement.setString(i++, e.id());
          statement.setString(i++, e.state().name());
          statement.setInt(i++, e.priority());
          statement.setInt(i++, e.attempts());
          statement.setInt(i++, e.maxAttempts());
          statement.setLong(i++, millis(e.createdAt(), 0));
          setMillis(statement, i++, e.dueAt());
          setMillis(statement, i++, e.startedAt());
          statement.setLong(i++, millis(e.finishedAt(), now));
          statement.setLong(i++, now);
          statement.setString(i++, e.lastError());
          setBytes(statement, i++, e.result());
          setBytes(statement, i++, e.payload());
          statement.addBatch();
        }
        statement.executeBatch();
        connection.commit();
      } catch (SQLException | RuntimeException e) {
        rollbackQuietly(connection, e);
        throw e;
      }
    }
  }

  private static long millis(Instant at, long otherwise) {
    return at == null ? otherwise : at.toEpochMilli();
  }

  private static void setMillis(PreparedStatement statement, int index, Instant at)
      throws SQLException {
    if (at == null) {
      statement.setNull(index, Types.BIGINT);
    } else {
      statement.setLong(index, at.toEpochMilli());
    }
  }

  private static void setBytes(PreparedStatement statement, int index, byte[] bytes)
      throws SQLException {
    if (bytes == null) {
      statement.setNull(index, Types.VARBINARY);
    } else {
      statement.setBytes(index, bytes);
    }
  }

  private static void rollbackQuietly(Connection connection, Exception cause) {
    try {
      connection.rollback();
    } catch (SQLException rollback) {
      cause.addSuppressed(rollback);
    }
  }
}
