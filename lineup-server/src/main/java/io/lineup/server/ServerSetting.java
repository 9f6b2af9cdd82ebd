package io.lineup.server;

import io.lineup.archive.ArchiveSettings;
import io.lineup.core.model.Limits;
import java.util.Locale;

/**
 * The one table of the server's settings: each one's environment variable, flag, kind, default,
 * bounds and meaning. {@link ServerSettings#parse} reads the variables and the flags by this table
 * (the flags with picocli, see {@link ServerFlags}), {@link ServerSettings} checks its bounds with
 * it, the server's {@code --help} lists it, and a test checks that the settings table of
 * docs/operations.md is this table, row by row.
 */
public enum ServerSetting {
  /** The address to bind. */
  HOST(
      "LINEUP_HOST",
      "--host",
      Kind.TEXT,
      null,
      0,
      0,
      "`"
          + ServerSettings.EMBEDDED_DEFAULT_HOST
          + "` with the embedded Redis, `"
          + ServerSettings.DEFAULT_HOST
          + "` with `LINEUP_REDIS_URL`",
      "address to bind; `0.0.0.0` for every interface (see \"Exposing the server\")"),

  /** The HTTP port. */
  PORT(
      "LINEUP_PORT",
      "--port",
      Kind.NUMBER,
      Integer.toString(ServerSettings.DEFAULT_PORT),
      0,
      65_535,
      "",
      "HTTP port, 0 to 65535; 0 picks a free port (the log line says which)"),

  /** The Redis of the engine, or none for the embedded one. */
  REDIS_URL(
      "LINEUP_REDIS_URL",
      "--redis-url",
      Kind.TEXT,
      null,
      0,
      0,
      "none: embedded Redis",
      "`redis://[user:password@]host:6379[/db]`, `rediss://…` (TLS),"
          + " `redis-sentinel://host:26379/0#master` (several sentinels:"
          + " `redis-sentinel://h1:26379,h2:26379,h3:26379/0#master`), or a comma list of nodes for"
          + " a Redis Cluster; passed to the engine as it is"),

  /** The admin token. */
  ADMIN_TOKEN(
      "LINEUP_ADMIN_TOKEN",
      "--admin-token",
      Kind.TEXT,
      null,
      0,
      0,
      "generated, kept in the data folder",
      "the admin token; at least "
          + ServerSettings.MIN_ADMIN_TOKEN_LENGTH
          + " printable ASCII characters without spaces"),

  /** The folder of the embedded Redis's data and the generated admin token. */
  DATA_DIR(
      "LINEUP_DATA_DIR",
      "--data-dir",
      Kind.TEXT,
      ServerSettings.DEFAULT_DATA_DIR,
      0,
      0,
      "",
      "the embedded Redis's data (`redis/`) and the generated admin token (`admin-token`)"),

  /** Whether {@code /metrics} answers without a token. */
  METRICS_PUBLIC(
      "LINEUP_METRICS_PUBLIC",
      "--metrics-public",
      Kind.BOOLEAN,
      Boolean.toString(ServerSettings.DEFAULT_METRICS_PUBLIC),
      0,
      0,
      "",
      "`true`: `/metrics` needs no token; `false`: it needs the admin token"),

  /** The largest job payload. */
  MAX_PAYLOAD_BYTES(
      "LINEUP_MAX_PAYLOAD_BYTES",
      "--max-payload-bytes",
      Kind.NUMBER,
      Integer.toString(Limits.DEFAULT_MAX_PAYLOAD_BYTES),
      1,
      ServerSettings.MAX_PAYLOAD_LIMIT,
      "(1 MiB)",
      "largest job payload in bytes, 1 to 16777216 (16 MiB)"),

  /** The longest wait for one Redis reply. */
  REDIS_TIMEOUT_MS(
      "LINEUP_REDIS_TIMEOUT_MS",
      "--redis-timeout-ms",
      Kind.NUMBER,
      Long.toString(ServerSettings.DEFAULT_REDIS_TIMEOUT_MS),
      ServerSettings.MIN_REDIS_TIMEOUT_MS,
      ServerSettings.MAX_REDIS_TIMEOUT_MS,
      "",
      "longest wait for one Redis reply, 100 to 60000 ms; then 503"),

  /** How long a shutdown waits for requests in progress. */
  SHUTDOWN_GRACE_MS(
      "LINEUP_SHUTDOWN_GRACE_MS",
      "--shutdown-grace-ms",
      Kind.NUMBER,
      Long.toString(ServerSettings.DEFAULT_SHUTDOWN_GRACE_MS),
      0,
      ServerSettings.MAX_SHUTDOWN_GRACE_MS,
      "",
      "how long a shutdown lets requests in progress finish, 0 to 600000 ms"),

  /** Whether every request is logged. */
  LOG_REQUESTS(
      "LINEUP_LOG_REQUESTS",
      "--log-requests",
      Kind.BOOLEAN,
      Boolean.toString(ServerSettings.DEFAULT_LOG_REQUESTS),
      0,
      0,
      "",
      "log one line per request (method, path, status, milliseconds)"),

  /** The archive's database, or none to leave archiving off. */
  ARCHIVE_JDBC_URL(
      "LINEUP_ARCHIVE_JDBC_URL",
      "--archive-jdbc-url",
      Kind.TEXT,
      null,
      0,
      0,
      "none: archiving off",
      "the SQL archive of ended jobs: `jdbc:postgresql://host:5432/db`, `jdbc:mysql://…` or"
          + " `jdbc:mariadb://…` ([archive.md](archive.md))"),

  /** The archive database's user. */
  ARCHIVE_USER(
      "LINEUP_ARCHIVE_USER",
      "--archive-user",
      Kind.TEXT,
      null,
      0,
      0,
      "none (from the URL)",
      "archive database user"),

  /** The archive database's password. */
  ARCHIVE_PASSWORD(
      "LINEUP_ARCHIVE_PASSWORD",
      "--archive-password",
      Kind.TEXT,
      null,
      0,
      0,
      "none (from the URL)",
      "archive database password; never logged"),

  /** How long archive rows are kept. */
  ARCHIVE_RETENTION_MS(
      "LINEUP_ARCHIVE_RETENTION_MS",
      "--archive-retention-ms",
      Kind.NUMBER,
      Long.toString(ArchiveSettings.DEFAULT_RETENTION.toMillis()),
      ServerSettings.MIN_ARCHIVE_RETENTION_MS,
      ServerSettings.MAX_ARCHIVE_RETENTION_MS,
      "(3 days)",
      "archive rows whose job ended longer ago are deleted; 60000 (1 minute) to 316224000000"
          + " (10 years)"),

  /** Most ended jobs per archive transaction. */
  ARCHIVE_BATCH_SIZE(
      "LINEUP_ARCHIVE_BATCH_SIZE",
      "--archive-batch-size",
      Kind.NUMBER,
      Integer.toString(ArchiveSettings.DEFAULT_BATCH_SIZE),
      1,
      ArchiveSettings.MAX_BATCH_SIZE,
      "",
      "most ended jobs written per database transaction, 1 to 10000"),

  /** Most rows per retention delete. */
  ARCHIVE_RETENTION_BATCH_SIZE(
      "LINEUP_ARCHIVE_RETENTION_BATCH_SIZE",
      "--archive-retention-batch-size",
      Kind.NUMBER,
      Integer.toString(ArchiveSettings.DEFAULT_RETENTION_BATCH_SIZE),
      1,
      ArchiveSettings.MAX_RETENTION_BATCH_SIZE,
      "",
      "most rows one retention delete removes, 1 to 100000"),

  /** Most entries of each queue's archive outbox. */
  ARCHIVE_OUTBOX_MAX(
      "LINEUP_ARCHIVE_OUTBOX_MAX",
      "--archive-outbox-max",
      Kind.NUMBER,
      Long.toString(ArchiveSettings.DEFAULT_OUTBOX_MAX),
      1,
      ArchiveSettings.MAX_OUTBOX_MAX,
      "",
      "most ended jobs each queue's outbox holds while the database is behind, 1 to 100000000;"
          + " beyond, ends are not archived and are counted"),

  /** The non-public addresses dispatch may reach. */
  EGRESS_ALLOW(
      "LINEUP_EGRESS_ALLOW",
      "--egress-allow",
      Kind.TEXT,
      null,
      0,
      0,
      "none: public addresses only, with the embedded Redis too",
      "comma list of the non-public addresses (`127.0.0.1`, `::1`), CIDR blocks (`10.20.0.0/16`,"
          + " `fd00::/8`) and host names (`billing.internal`) that dispatch tasks and callbacks may"
          + " reach, each optionally on one port (`billing.internal:8443`, `[fd00::/8]:443`); this"
          + " server's Redis stays unreachable whatever it says"
          + " ([dispatch.md](dispatch.md#egress-and-security))");

  /** How a setting's text is read. */
  public enum Kind {
    /** Taken as it is (trimmed). */
    TEXT,
    /** A whole number within the setting's bounds. */
    NUMBER,
    /** {@code true/false}, {@code yes/no}, {@code on/off} or {@code 1/0}, in any case. */
    BOOLEAN
  }

  private final String variable;
  private final String flag;
  private final Kind kind;
  private final String defaultValue;
  private final long min;
  private final long max;
  private final String defaultNote;
  private final String doc;

  ServerSetting(
      String variable,
      String flag,
      Kind kind,
      String defaultValue,
      long min,
      long max,
      String defaultNote,
      String doc) {
    this.variable = variable;
    this.flag = flag;
    this.kind = kind;
    this.defaultValue = defaultValue;
    this.min = min;
    this.max = max;
    this.defaultNote = defaultNote;
    this.doc = doc;
  }

  /** The environment variable, e.g. {@code LINEUP_PORT}. */
  public String variable() {
    return variable;
  }

  /** The flag, e.g. {@code --port}. */
  public String flag() {
    return flag;
  }

  /** How the setting's text is read. */
  public Kind kind() {
    return kind;
  }

  /**
   * The default as text, read as if it were given, or null when there is none or it depends on
   * another setting (see {@link #defaultText()}).
   */
  public String defaultValue() {
    return defaultValue;
  }

  /** The smallest value accepted, for a {@link Kind#NUMBER}; 0 otherwise. */
  public long min() {
    return min;
  }

  /** The largest value accepted, for a {@link Kind#NUMBER}; 0 otherwise. */
  public long max() {
    return max;
  }

  /**
   * The default as the docs say it (Markdown): the value in backticks and a note, e.g. {@code
   * `1048576` (1 MiB)}, or what happens without a value, e.g. {@code none: archiving off}.
   */
  public String defaultText() {
    if (defaultValue == null) {
      return defaultNote;
    }
    return "`" + defaultValue + "`" + (defaultNote.isEmpty() ? "" : " " + defaultNote);
  }

  /** What the setting does and its bounds, as the docs say it (Markdown). */
  public String doc() {
    return doc;
  }

  /** The setting's row in the settings table of docs/operations.md. */
  public String docRow() {
    return "| `" + variable + "` | `" + flag + "` | " + defaultText() + " | " + doc + " |";
  }

  /** The setting as messages name it: {@code LINEUP_PORT (--port)}. */
  public String describe() {
    return variable + " (" + flag + ")";
  }

  /**
   * Checks a number against the bounds.
   *
   * @throws InvalidSettingException naming the setting when the value is out of bounds
   */
  public void check(long value) {
    if (value < min || value > max) {
      throw new InvalidSettingException(
          describe() + " must be between " + min + " and " + max + ", got " + value);
    }
  }

  /**
   * Reads a given text, or the default when none is given.
   *
   * @throws InvalidSettingException naming the setting when there is neither
   */
  String text(String given) {
    String value = given != null ? given : defaultValue;
    if (value == null || value.isBlank()) {
      throw new InvalidSettingException(describe() + " must not be empty");
    }
    return value;
  }

  /**
   * Reads a whole number, given or the default; its bounds are checked by {@link #check}.
   *
   * @throws InvalidSettingException naming the setting when it is not a whole number
   */
  long number(String given) {
    String value = text(given);
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new InvalidSettingException(
          describe() + " must be a whole number, got '" + value + "'");
    }
  }

  /**
   * Reads a whole number that fits an {@code int}, given or the default.
   *
   * @throws InvalidSettingException naming the setting when it is not one
   */
  int intNumber(String given) {
    long parsed = number(given);
    if (parsed != (int) parsed) {
      throw new InvalidSettingException(describe() + " is out of range, got " + parsed);
    }
    return (int) parsed;
  }

  /**
   * Reads a boolean, given or the default.
   *
   * @throws InvalidSettingException naming the setting when it is not one of the {@link
   *     Kind#BOOLEAN} words
   */
  boolean bool(String given) {
    String value = text(given).toLowerCase(Locale.ROOT);
    return switch (value) {
      case "true", "yes", "1", "on" -> true;
      case "false", "no", "0", "off" -> false;
      default ->
          throw new InvalidSettingException(
              describe() + " must be true or false, got '" + value + "'");
    };
  }
}
