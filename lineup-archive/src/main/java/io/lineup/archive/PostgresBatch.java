package io.lineup.archive;

import io.lineup.core.OutboxEntry;
import io.lineup.core.QueueName;
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
 * A batch of archive rows written to PostgreSQL with {@code COPY} into a temporary staging table
 * and one {@code INSERT ... SELECT ... ON CONFLICT} from it: the same idempotent upsert as {@link
 * Dialect#upsert()}, for a fraction of the database's and the driver's work per row (no statement
 * parameters to bind and parse, one plan per batch).
 *
 * <p>The staging table lives in the connection's session and empties at every commit; the caller
 * owns the transaction.
 */
final class PostgresBatch {
  private static final String STAGING = "lineup_archive_staging";

  /** Made once per session; a second time in the same session it only notes that it exists. */
  private static final String CREATE_STAGING =
      "CREATE TEMP TABLE IF NOT EXISTS "
          + STAGING
          + " (LIKE lineup_archive INCLUDING DEFAULTS) ON COMMIT DELETE ROWS";

  private static final String COLUMNS =
      "namespace, queue, id, state, priority, attempts, max_attempts, created_ms, due_ms,"
          + " started_ms, finished_ms, archived_ms, last_error, result, payload";

  private static final String COPY = "COPY " + STAGING + " (" + COLUMNS + ") FROM STDIN";

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

  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  private PostgresBatch() {}

  /** Upserts the entries within the connection's open transaction. */
  static void write(Connection connection, List<OutboxEntry> entries, long now)
      throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(CREATE_STAGING);
      CopyIn copy = connection.unwrap(PGConnection.class).getCopyAPI().copyIn(COPY);
      try {
        Rows rows = new Rows(Math.min(SEND_AT, entries.size() * 256));
        for (OutboxEntry e : lastEnds(entries)) {
          rows.text(e.queue().namespace())
              .text(e.queue().name())
              .text(e.id())
              .text(e.state().name())
              .number(e.priority())
              .number(e.attempts())
              .number(e.maxAttempts())
              .number(millis(e.createdAt(), 0))
              .millisOrNull(e.dueAt())
              .millisOrNull(e.startedAt())
              .number(millis(e.finishedAt(), now))
              .number(now)
              .text(e.lastError())
              .bytes(e.result())
              .last(e.payload());
          if (rows.size >= SEND_AT) {
            // Sent as it fills: a batch of large payloads is never held whole in hex.
            copy.writeToCopy(rows.buffer, 0, rows.size);
            rows.size = 0;
          }
        }
        copy.writeToCopy(rows.buffer, 0, rows.size);
        copy.endCopy();
      } finally {
        if (copy.isActive()) {
          copy.cancelCopy();
        }
      }
      statement.executeUpdate(MERGE);
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

  /** COPY's text format: tab between columns, a newline after each row, \N for null. */
  private static final class Rows {
    private byte[] buffer;
    private int size;

    Rows(int capacity) {
      buffer = new byte[Math.max(64, capacity)];
    }

    Rows text(String value) {
      if (value == null) {
        return nullValue();
      }
      byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
      room(utf8.length * 2 + 1);
      for (byte b : utf8) {
        switch (b) {
          case '\\' -> put2('\\', '\\');
          case '\t' -> put2('\\', 't');
          case '\n' -> put2('\\', 'n');
          case '\r' -> put2('\\', 'r');
          default -> buffer[size++] = b;
        }
      }
      buffer[size++] = '\t';
      return this;
    }

    Rows number(long value) {
      byte[] digits = Long.toString(value).getBytes(StandardCharsets.US_ASCII);
      room(digits.length + 1);
      System.arraycopy(digits, 0, buffer, size, digits.length);
      size += digits.length;
      buffer[size++] = '\t';
      return this;
    }

    Rows millisOrNull(Instant at) {
      return at == null ? nullValue() : number(at.toEpochMilli());
    }

    /** bytea in hex: {@code \x} and two digits a byte, its backslash escaped for COPY. */
    Rows bytes(byte[] value) {
      if (value == null) {
        return nullValue();
      }
      room(value.length * 2 + 4);
      buffer[size++] = '\\';
      buffer[size++] = '\\';
      buffer[size++] = 'x';
      for (byte b : value) {
        buffer[size++] = HEX[(b >> 4) & 0xf];
        buffer[size++] = HEX[b & 0xf];
      }
      buffer[size++] = '\t';
      return this;
    }

    void last(byte[] value) {
      bytes(value);
      buffer[size - 1] = '\n';
    }

    private Rows nullValue() {
      room(3);
      buffer[size++] = '\\';
      buffer[size++] = 'N';
      buffer[size++] = '\t';
      return this;
    }

    private void put2(char a, char b) {
      buffer[size++] = (byte) a;
      buffer[size++] = (byte) b;
    }

    private void room(int more) {
      if (size + more > buffer.length) {
        buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, size + more));
      }
    }
  }
}
