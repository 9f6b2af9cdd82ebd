package io.lineup.archive;

import io.lineup.core.model.OutboxEntry;
import io.lineup.core.model.QueueName;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * A batch of archive rows written to PostgreSQL with {@code COPY} in its binary format (no text
 * escaping or hex on either side, numbers as they are stored).
 *
 * <p>A batch of jobs that are not in the archive yet, which is nearly every batch, is copied
 * straight into {@code lineup_archive}. When one of its jobs is there already (the archiver was
 * stopped between a commit and its outbox acknowledgement, or a job was respawned and ended again)
 * the copy fails on the primary key, and the caller rolls back and writes the batch again with
 * {@link #merge}: {@code COPY} into a temporary staging table and one {@code INSERT ... SELECT ...
 * ON CONFLICT} from it, the same idempotent upsert as {@link Dialect#upsert()}. Both leave the same
 * rows. The straight copy spares PostgreSQL the staging table's write and the upsert's speculative
 * insertion, about a third of its CPU per row.
 *
 * <p>The binary format needs each value in its column's exact type: the columns below follow the
 * migrations (VARCHAR/TEXT, INTEGER, BIGINT, BYTEA); a migration that changes a type changes them.
 * The caller owns the transaction; the staging table lives in the session and empties at every
 * commit.
 */
final class PostgresBatch {
  private static final String STAGING = "lineup_archive_staging";

  /** PostgreSQL's SQLSTATE of a unique violation. */
  private static final String UNIQUE_VIOLATION = "23505";

  /** Made once per session; a second time in the same session it only notes that it exists. */
  private static final String CREATE_STAGING =
      "CREATE TEMP TABLE IF NOT EXISTS "
          + STAGING
          + " (LIKE lineup_archive INCLUDING DEFAULTS) ON COMMIT DELETE ROWS";

  private static final String COLUMNS =
      "namespace, queue, id, state, priority, attempts, max_attempts, created_ms, due_ms,"
          + " started_ms, finished_ms, archived_ms, last_error, result, payload";

  private static final int COLUMN_COUNT = 15;

  private static final String COPY_STRAIGHT =
      "COPY lineup_archive (" + COLUMNS + ") FROM STDIN WITH (FORMAT binary)";

  private static final String COPY_STAGING =
      "COPY " + STAGING + " (" + COLUMNS + ") FROM STDIN WITH (FORMAT binary)";

  /** The batch's rows into the archive (each job once: {@link #lastEnds}). */
  private static final String MERGE =
      "INSERT INTO lineup_archive ("
          + COLUMNS
          + ") SELECT "
          + COLUMNS
          + " FROM "
          + STAGING
          + Dialect.POSTGRESQL.upsertConflictClause();

  /** Bytes of COPY rows gathered before they are sent. */
  private static final int SEND_AT = 1 << 20;

  /** The binary COPY header: signature, flags (none), header extension length (none). */
  private static final byte[] HEADER = {
    'P', 'G', 'C', 'O', 'P', 'Y', '\n', (byte) 0xff, '\r', '\n', 0, 0, 0, 0, 0, 0, 0, 0, 0
  };

  private PostgresBatch() {}

  /**
   * Inserts the entries within the connection's open transaction, straight into the archive.
   *
   * @return false, with nothing written, when the batch holds a job twice or a job the archive
   *     holds already (the transaction is then aborted: the caller rolls it back and calls {@link
   *     #merge}); true when every row was inserted
   * @throws SQLException for any other failure
   */
  static boolean insert(Connection connection, List<OutboxEntry> entries, long now)
      throws SQLException {
    if (lastEnds(entries) != entries) {
      return false;
    }
    try {
      copy(connection, COPY_STRAIGHT, entries, now);
      return true;
    } catch (SQLException e) {
      if (UNIQUE_VIOLATION.equals(e.getSQLState())) {
        return false;
      }
      throw e;
    }
  }

  /** Upserts the entries within the connection's open transaction, through the staging table. */
  static void merge(Connection connection, List<OutboxEntry> entries, long now)
      throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(CREATE_STAGING);
      copy(connection, COPY_STAGING, lastEnds(entries), now);
      statement.executeUpdate(MERGE);
    }
  }

  private static void copy(Connection connection, String sql, List<OutboxEntry> entries, long now)
      throws SQLException {
    CopyIn copy = connection.unwrap(PGConnection.class).getCopyAPI().copyIn(sql);
    try {
      Rows rows = new Rows(Math.min(SEND_AT, entries.size() * 256 + HEADER.length + 2));
      rows.raw(HEADER);
      for (OutboxEntry e : entries) {
        rows.tuple()
            .text(e.queue().namespace())
            .text(e.queue().name())
            .text(e.id())
            .text(e.state().name())
            .int4(e.priority())
            .int4(e.attempts())
            .int4(e.maxAttempts())
            .int8(millis(e.createdAt(), 0))
            .int8OrNull(e.dueAt())
            .int8OrNull(e.startedAt())
            .int8(millis(e.finishedAt(), now))
            .int8(now)
            .text(e.lastError())
            .bytes(e.result())
            .bytes(e.payload());
        if (rows.size >= SEND_AT) {
          // Sent as it fills: a batch of large payloads is never held whole.
          copy.writeToCopy(rows.buffer, 0, rows.size);
          rows.size = 0;
        }
      }
      rows.int2(-1); // the trailer
      copy.writeToCopy(rows.buffer, 0, rows.size);
      copy.endCopy();
    } finally {
      if (copy.isActive()) {
        copy.cancelCopy();
      }
    }
  }

  /**
   * The entries with each job once: of a job that ended, was respawned and ended again within the
   * batch only the end that came last (the later finish, and of equal ones the later entry), as
   * when they were upserted one after another; {@code ON CONFLICT} may touch a row once a
   * statement. Mostly every job is there once, and the list is returned as it is.
   */
  static List<OutboxEntry> lastEnds(List<OutboxEntry> entries) {
    Set<JobKey> seen = new HashSet<>(entries.size() * 2);
    boolean twice = false;
    for (OutboxEntry e : entries) {
      twice |= !seen.add(new JobKey(e.queue(), e.id()));
    }
    if (!twice) {
      return entries;
    }
    Map<JobKey, OutboxEntry> last = new LinkedHashMap<>();
    for (OutboxEntry e : entries) {
      last.merge(
          new JobKey(e.queue(), e.id()),
          e,
          (kept, next) -> finished(next) >= finished(kept) ? next : kept);
    }
    return new ArrayList<>(last.values());
  }

  /** A job's archive key: its queue (namespace and name) and id. */
  private record JobKey(QueueName queue, String id) {}

  private static long finished(OutboxEntry e) {
    return millis(e.finishedAt(), Long.MAX_VALUE);
  }

  private static long millis(Instant at, long otherwise) {
    return at == null ? otherwise : at.toEpochMilli();
  }

  /**
   * COPY's binary format: per row the number of columns, then per column its length in bytes (-1
   * for null) and its value; integers big-endian.
   */
  private static final class Rows {
    private byte[] buffer;
    private int size;

    Rows(int capacity) {
      buffer = new byte[Math.max(64, capacity)];
    }

    void raw(byte[] bytes) {
      room(bytes.length);
      System.arraycopy(bytes, 0, buffer, size, bytes.length);
      size += bytes.length;
    }

    Rows tuple() {
      int2(COLUMN_COUNT);
      return this;
    }

    Rows text(String value) {
      return value == null ? nullValue() : bytes(value.getBytes(StandardCharsets.UTF_8));
    }

    Rows bytes(byte[] value) {
      if (value == null) {
        return nullValue();
      }
      room(4 + value.length);
      put4(value.length);
      System.arraycopy(value, 0, buffer, size, value.length);
      size += value.length;
      return this;
    }

    Rows int4(int value) {
      room(8);
      put4(4);
      put4(value);
      return this;
    }

    Rows int8(long value) {
      room(12);
      put4(8);
      put4((int) (value >>> 32));
      put4((int) value);
      return this;
    }

    Rows int8OrNull(Instant at) {
      return at == null ? nullValue() : int8(at.toEpochMilli());
    }

    void int2(int value) {
      room(2);
      buffer[size++] = (byte) (value >>> 8);
      buffer[size++] = (byte) value;
    }

    private Rows nullValue() {
      room(4);
      put4(-1);
      return this;
    }

    private void put4(int value) {
      buffer[size++] = (byte) (value >>> 24);
      buffer[size++] = (byte) (value >>> 16);
      buffer[size++] = (byte) (value >>> 8);
      buffer[size++] = (byte) value;
    }

    private void room(int more) {
      if (size + more > buffer.length) {
        buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, size + more));
      }
    }
  }
}
