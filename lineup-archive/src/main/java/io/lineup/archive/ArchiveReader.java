package io.lineup.archive;

import io.lineup.core.model.JobState;
import io.lineup.core.model.QueueName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Reads the archive: one job by its id, or a page of a namespace's jobs newest end first. */
public final class ArchiveReader {
  /** Most rows in one page. */
  public static final int MAX_PAGE = 1_000;

  private static final String COLUMNS =
      "namespace, queue, id, state, priority, attempts, max_attempts, created_ms, due_ms,"
          + " started_ms, finished_ms, archived_ms, last_error, result, payload";

  private final ArchiveDatabase database;

  /**
   * @param database the archive's database
   */
  public ArchiveReader(ArchiveDatabase database) {
    this.database = database;
  }

  /**
   * The archived row of a job, or empty when the archive has none (never archived, or deleted by
   * retention).
   *
   * @throws ArchiveUnavailableException when the database cannot be read
   */
  public Optional<ArchivedJob> find(QueueName queue, String id) {
    String sql =
        "SELECT " + COLUMNS + " FROM lineup_archive WHERE namespace = ? AND queue = ? AND id = ?";
    try (Connection connection = database.connection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setString(1, queue.namespace());
      statement.setString(2, queue.name());
      statement.setString(3, id);
      try (ResultSet rows = statement.executeQuery()) {
        return rows.next() ? Optional.of(row(rows)) : Optional.empty();
      }
    } catch (SQLException e) {
      throw new ArchiveUnavailableException("The archive could not be read: " + e.getMessage(), e);
    }
  }

  /**
   * A page of the namespace's rows matching the query, newest end first (ties by queue and id,
   * descending).
   *
   * @throws IllegalArgumentException when the limit is outside 1..{@value #MAX_PAGE}, the cursor is
   *     not one this listing made, or the namespace is missing
   * @throws ArchiveUnavailableException when the database cannot be read
   */
  public ArchivePage list(ArchiveQuery query) {
    if (query.namespace() == null || query.namespace().isEmpty()) {
      throw new IllegalArgumentException("namespace is required");
    }
    if (query.limit() < 1 || query.limit() > MAX_PAGE) {
      throw new IllegalArgumentException("limit must be 1 to " + MAX_PAGE);
    }
    ArchiveCursor after = query.cursor() == null ? null : ArchiveCursor.decode(query.cursor());
    StringBuilder sql =
        new StringBuilder("SELECT " + COLUMNS + " FROM lineup_archive WHERE namespace = ?");
    List<Object> args = new ArrayList<>();
    args.add(query.namespace());
    if (query.queue() != null) {
      sql.append(" AND queue = ?");
      args.add(query.queue());
    }
    if (query.state() != null) {
      sql.append(" AND state = ?");
      args.add(query.state().name());
    }
    if (query.finishedFrom() != null) {
      sql.append(" AND finished_ms >= ?");
      args.add(query.finishedFrom().toEpochMilli());
    }
    if (query.finishedBefore() != null) {
      sql.append(" AND finished_ms < ?");
      args.add(query.finishedBefore().toEpochMilli());
    }
    if (after != null) {
      sql.append(
          " AND (finished_ms < ? OR (finished_ms = ? AND (queue < ? OR (queue = ? AND id < ?))))");
      args.add(after.finishedMs());
      args.add(after.finishedMs());
      args.add(after.queue());
      args.add(after.queue());
      args.add(after.id());
    }
    sql.append(" ORDER BY finished_ms DESC, queue DESC, id DESC LIMIT ?");
    args.add(query.limit() + 1);
    try (Connection connection = database.connection();
        PreparedStatement statement = connection.prepareStatement(sql.toString())) {
      for (int i = 0; i < args.size(); i++) {
        statement.setObject(i + 1, args.get(i));
      }
      List<ArchivedJob> jobs = new ArrayList<>();
      boolean more = false;
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          if (jobs.size() == query.limit()) {
            more = true;
            break;
          }
          jobs.add(row(rows));
        }
      }
      String next = null;
      if (more) {
        ArchivedJob last = jobs.get(jobs.size() - 1);
        next =
            new ArchiveCursor(last.finishedAt().toEpochMilli(), last.queue().name(), last.id())
                .encode();
      }
      return new ArchivePage(List.copyOf(jobs), next);
    } catch (SQLException e) {
      throw new ArchiveUnavailableException("The archive could not be read: " + e.getMessage(), e);
    }
  }

  /**
   * How many rows the archive holds (all namespaces).
   *
   * @throws ArchiveUnavailableException when the database cannot be read
   */
  public long count() {
    try (Connection connection = database.connection();
        PreparedStatement statement =
            connection.prepareStatement("SELECT COUNT(*) FROM lineup_archive");
        ResultSet rows = statement.executeQuery()) {
      rows.next();
      return rows.getLong(1);
    } catch (SQLException e) {
      throw new ArchiveUnavailableException("The archive could not be read: " + e.getMessage(), e);
    }
  }

  /**
   * How many rows the archive holds for one queue (read by the primary key's leading columns).
   *
   * @throws ArchiveUnavailableException when the database cannot be read
   */
  public long count(QueueName queue) {
    try (Connection connection = database.connection();
        PreparedStatement statement =
            connection.prepareStatement(
                "SELECT COUNT(*) FROM lineup_archive WHERE namespace = ? AND queue = ?")) {
      statement.setString(1, queue.namespace());
      statement.setString(2, queue.name());
      try (ResultSet rows = statement.executeQuery()) {
        rows.next();
        return rows.getLong(1);
      }
    } catch (SQLException e) {
      throw new ArchiveUnavailableException("The archive could not be read: " + e.getMessage(), e);
    }
  }

  private static ArchivedJob row(ResultSet rows) throws SQLException {
    return new ArchivedJob(
        QueueName.of(rows.getString("namespace"), rows.getString("queue")),
        rows.getString("id"),
        JobState.valueOf(rows.getString("state")),
        rows.getInt("priority"),
        rows.getInt("attempts"),
        rows.getInt("max_attempts"),
        instant(rows, "created_ms"),
        instant(rows, "due_ms"),
        instant(rows, "started_ms"),
        instant(rows, "finished_ms"),
        instant(rows, "archived_ms"),
        rows.getString("last_error"),
        rows.getBytes("result"),
        rows.getBytes("payload"));
  }

  private static Instant instant(ResultSet rows, String column) throws SQLException {
    long ms = rows.getLong(column);
    return rows.wasNull() ? null : Instant.ofEpochMilli(ms);
  }
}
