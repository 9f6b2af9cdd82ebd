package io.lineup.archive;

/**
 * The SQL that differs between the databases the archive supports: where its migrations are, the
 * idempotent upsert and the batched delete of retention.
 */
public enum Dialect {
  /** PostgreSQL 12 or newer ({@code jdbc:postgresql:}). */
  POSTGRESQL("db/archive/postgresql"),
  /** MySQL 8.0 or newer, MariaDB 10.6 or newer ({@code jdbc:mysql:} or {@code jdbc:mariadb:}). */
  MYSQL("db/archive/mysql");

  private static final String COLUMNS =
      "namespace, queue, id, state, priority, attempts, max_attempts, created_ms, due_ms,"
          + " started_ms, finished_ms, archived_ms, last_error, result, payload";

  /** The columns the upsert sets after the key, in order; finished_ms must stay last for MySQL. */
  private static final String[] UPDATED = {
    "state",
    "priority",
    "attempts",
    "max_attempts",
    "created_ms",
    "due_ms",
    "started_ms",
    "archived_ms",
    "last_error",
    "result",
    "payload",
    "finished_ms"
  };

  private final String migrations;

  Dialect(String migrations) {
    this.migrations = migrations;
  }

  /**
   * The dialect of a JDBC URL.
   *
   * @throws IllegalArgumentException when the URL is not one of {@code jdbc:postgresql:}, {@code
   *     jdbc:mysql:} or {@code jdbc:mariadb:}
   */
  public static Dialect of(String jdbcUrl) {
    if (jdbcUrl != null) {
      if (jdbcUrl.startsWith("jdbc:postgresql:")) {
        return POSTGRESQL;
      }
      if (jdbcUrl.startsWith("jdbc:mysql:") || jdbcUrl.startsWith("jdbc:mariadb:")) {
        return MYSQL;
      }
    }
    throw new IllegalArgumentException(
        "must start with jdbc:postgresql:, jdbc:mysql: or jdbc:mariadb:");
  }

  /** The Flyway location of this dialect's migrations (a classpath folder). */
  public String migrations() {
    return "classpath:" + migrations;
  }

  /**
   * Inserts a row, or updates the row of the same (namespace, queue, id) when the new one ended at
   * the same time or later: a job that ended, was respawned and ended again keeps its last end, and
   * an entry delivered twice (after a crash) changes nothing.
   */
  String upsert() {
    String insert =
        "INSERT INTO lineup_archive (" + COLUMNS + ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
    StringBuilder sql = new StringBuilder(insert);
    if (this == POSTGRESQL) {
      sql.append(upsertConflictClause());
    } else {
      // MySQL evaluates the assignments left to right, each seeing the ones before: finished_ms
      // is compared by every other column and so is set last.
      sql.append(" ON DUPLICATE KEY UPDATE ");
      for (int i = 0; i < UPDATED.length; i++) {
        String c = UPDATED[i];
        sql.append(i == 0 ? "" : ", ");
        if (c.equals("finished_ms")) {
          sql.append("finished_ms = GREATEST(finished_ms, VALUES(finished_ms))");
        } else {
          sql.append(c)
              .append(" = IF(VALUES(finished_ms) >= finished_ms, VALUES(")
              .append(c)
              .append("), ")
              .append(c)
              .append(")");
        }
      }
    }
    return sql.toString();
  }

  /**
   * PostgreSQL's {@code ON CONFLICT} clause of the upsert (with a leading space): the row of the
   * same key is updated when the new one ended at the same time or later.
   */
  String upsertConflictClause() {
    StringBuilder sql = new StringBuilder(" ON CONFLICT (namespace, queue, id) DO UPDATE SET ");
    for (int i = 0; i < UPDATED.length; i++) {
      sql.append(i == 0 ? "" : ", ").append(UPDATED[i]).append(" = EXCLUDED.").append(UPDATED[i]);
    }
    return sql.append(" WHERE lineup_archive.finished_ms <= EXCLUDED.finished_ms").toString();
  }

  /** Deletes at most {@code ?2} rows that ended before {@code ?1}, oldest first. */
  String deleteOldest() {
    if (this == POSTGRESQL) {
      return "DELETE FROM lineup_archive WHERE (namespace, queue, id) IN (SELECT namespace, queue,"
          + " id FROM lineup_archive WHERE finished_ms < ? ORDER BY finished_ms LIMIT ?)";
    }
    return "DELETE FROM lineup_archive WHERE finished_ms < ? ORDER BY finished_ms LIMIT ?";
  }
}
