package io.lineup.archive;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * The archive's database: a HikariCP pool, and the schema created or upgraded by Flyway ({@link
 * #migrate}). Connections fail fast (a 5 s connection timeout) so an archiver notices a database
 * that went away and waits instead of hanging.
 */
public final class ArchiveDatabase implements AutoCloseable {
  private final HikariDataSource pool;
  private final Dialect dialect;
  private final String safeUrl;

  private ArchiveDatabase(HikariDataSource pool, Dialect dialect, String safeUrl) {
    this.pool = pool;
    this.dialect = dialect;
    this.safeUrl = safeUrl;
  }

  /**
   * Opens the pool; no connection is made yet (see {@link #migrate()}).
   *
   * @throws IllegalArgumentException when the URL is not of a supported database
   */
  public static ArchiveDatabase open(ArchiveSettings settings) {
    Dialect dialect = Dialect.of(settings.jdbcUrl());
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(settings.jdbcUrl());
    if (settings.user() != null) {
      config.setUsername(settings.user());
    }
    if (settings.password() != null) {
      config.setPassword(settings.password());
    }
    config.setPoolName("lineup-archive");
    config.setMaximumPoolSize(settings.poolSize());
    config.setMinimumIdle(1);
    config.setConnectionTimeout(5_000);
    config.setValidationTimeout(2_000);
    // Start without a connection: a database that is down at start is waited for like later.
    config.setInitializationFailTimeout(-1);
    if (dialect == Dialect.POSTGRESQL) {
      // One multi-row INSERT per batch instead of one statement per row.
      config.addDataSourceProperty("reWriteBatchedInserts", "true");
      config.addDataSourceProperty("connectTimeout", "5");
      config.addDataSourceProperty("socketTimeout", "30");
    } else {
      config.addDataSourceProperty("permitMysqlScheme", "true");
      config.addDataSourceProperty("connectTimeout", "5000");
      config.addDataSourceProperty("socketTimeout", "30000");
    }
    return new ArchiveDatabase(new HikariDataSource(config), dialect, settings.safeUrl());
  }

  /**
   * Creates the schema, or upgrades it to this version's, with Flyway (its history table is {@code
   * lineup_archive_schema}). A database holding other tables is fine: the archive adds its own.
   *
   * @throws ArchiveUnavailableException when the database cannot be reached or migrated
   */
  public void migrate() {
    try {
      Flyway.configure(ArchiveDatabase.class.getClassLoader())
          .dataSource(pool)
          .locations(dialect.migrations())
          .table("lineup_archive_schema")
          .baselineOnMigrate(true)
          .baselineVersion("0")
          .load()
          .migrate();
    } catch (RuntimeException e) {
      throw new ArchiveUnavailableException(
          "The archive database " + safeUrl + " could not be set up: " + e.getMessage(), e);
    }
  }

  /** The database's address without credentials, for messages. */
  public String safeUrl() {
    return safeUrl;
  }

  /** Which SQL this database speaks. */
  public Dialect dialect() {
    return dialect;
  }

  /** The pool, for callers that run their own SQL (tests, reports). */
  public DataSource dataSource() {
    return pool;
  }

  Connection connection() throws SQLException {
    return pool.getConnection();
  }

  @Override
  public void close() {
    pool.close();
  }
}
