package io.lineup.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;

/**
 * A database of its own for one test class, on the machine's real PostgreSQL ({@code
 * 127.0.0.1:5432}, trust, database {@code test}) or MariaDB ({@code 127.0.0.1:3306}, root without a
 * password): {@link #create()} makes a schema (PostgreSQL) or database (MariaDB) with a random
 * name, so runs never collide, and {@link #close()} drops it. The JDBC driver must be on the test
 * class path.
 *
 * <p>When the server cannot be reached, {@link #create()} skips the test class with a message
 * saying so, unless the environment variable {@code LINEUP_REQUIRE_DB=1} (set by CI), when it fails
 * instead.
 */
public final class TestDatabase implements AutoCloseable {
  /** Which database server. */
  public enum Kind {
    /** PostgreSQL on 127.0.0.1:5432. */
    POSTGRESQL,
    /** MariaDB (standing in for MySQL) on 127.0.0.1:3306. */
    MARIADB
  }

  private final Kind kind;
  private final String name;
  private final String adminUrl;
  private final String user;
  private String url;

  private TestDatabase(Kind kind, String host, int port) {
    this.kind = kind;
    this.name = "lineup_t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    if (kind == Kind.POSTGRESQL) {
      this.adminUrl = "jdbc:postgresql://" + host + ":" + port + "/test";
      this.user = "postgres";
    } else {
      this.adminUrl = "jdbc:mariadb://" + host + ":" + port + "/test";
      this.user = "root";
    }
  }

  /** The machine's PostgreSQL. */
  public static TestDatabase postgres() {
    return new TestDatabase(Kind.POSTGRESQL, "127.0.0.1", 5432);
  }

  /** The machine's MariaDB. */
  public static TestDatabase mariadb() {
    return new TestDatabase(Kind.MARIADB, "127.0.0.1", 3306);
  }

  /** Whether {@code LINEUP_REQUIRE_DB=1}: an unreachable database fails the tests. */
  public static boolean required() {
    return "1".equals(System.getenv("LINEUP_REQUIRE_DB"));
  }

  /**
   * Creates this run's schema or database.
   *
   * @return this
   */
  public TestDatabase create() {
    try (Connection c = DriverManager.getConnection(adminUrl, user, "");
        Statement s = c.createStatement()) {
      if (kind == Kind.POSTGRESQL) {
        s.execute("CREATE SCHEMA " + name);
        url = adminUrl + "?currentSchema=" + name;
      } else {
        s.execute("CREATE DATABASE " + name);
        url = adminUrl.substring(0, adminUrl.lastIndexOf('/') + 1) + name;
      }
      return this;
    } catch (SQLException e) {
      String message =
          kind.name().toLowerCase(Locale.ROOT)
              + " at "
              + adminUrl
              + " is not reachable ("
              + e.getMessage()
              + ")";
      if (required()) {
        throw new IllegalStateException(message + "; LINEUP_REQUIRE_DB=1 requires it", e);
      }
      System.err.println("SKIPPED: " + message + "; set LINEUP_REQUIRE_DB=1 to fail instead");
      Assumptions.abort("Skipped: " + message + "; set LINEUP_REQUIRE_DB=1 to fail instead");
      throw new AssertionError("unreachable");
    }
  }

  /** Which server. */
  public Kind kind() {
    return kind;
  }

  /** The JDBC URL of this run's schema or database (no credentials in it). */
  public String url() {
    return url;
  }

  /** The JDBC URL of this run's schema or database on another host and port (a proxy). */
  public String urlVia(String host, int port) {
    return url.replace("127.0.0.1:" + (kind == Kind.POSTGRESQL ? 5432 : 3306), host + ":" + port);
  }

  /** The user to connect as. */
  public String user() {
    return user;
  }

  /** A connection to this run's schema or database. */
  public Connection connect() throws SQLException {
    return DriverManager.getConnection(url, user, "");
  }

  /** Drops this run's schema or database with everything in it. */
  @Override
  public void close() {
    if (url == null) {
      return;
    }
    try (Connection c = DriverManager.getConnection(adminUrl, user, "");
        Statement s = c.createStatement()) {
      s.execute(
          kind == Kind.POSTGRESQL
              ? "DROP SCHEMA IF EXISTS " + name + " CASCADE"
              : "DROP DATABASE IF EXISTS " + name);
    } catch (SQLException e) {
      throw new IllegalStateException("Could not drop the test database " + name, e);
    }
  }
}
