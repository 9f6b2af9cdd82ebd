package io.lineup.archive;

import java.time.Duration;

/**
 * How the archive runs. {@link #defaults(String)} gives the documented defaults (docs/archive.md).
 *
 * @param jdbcUrl the database, {@code jdbc:postgresql:}, {@code jdbc:mysql:} or {@code
 *     jdbc:mariadb:}
 * @param user the database user, or null to take it from the URL
 * @param password the database password, or null; never logged
 * @param retention rows whose job ended longer ago than this are deleted
 * @param batchSize most ended jobs written per database transaction (1 to 10,000)
 * @param retentionBatchSize most rows one retention delete removes (1 to 100,000)
 * @param outboxMax most entries each queue's outbox holds while the database is behind
 * @param pollInterval wait between two rounds of the archiver when a round found nothing to do
 * @param claimIdle entries pending this long for another archiver (one that died) are taken over
 * @param retentionInterval wait between two retention rounds (each one instance at a time)
 * @param poolSize most database connections
 * @param writers archiver threads of this instance, each a consumer of its own with its own
 *     database transactions (1 to 16, and below poolSize, leaving a connection for lookups)
 */
public record ArchiveSettings(
    String jdbcUrl,
    String user,
    String password,
    Duration retention,
    int batchSize,
    int retentionBatchSize,
    long outboxMax,
    Duration pollInterval,
    Duration claimIdle,
    Duration retentionInterval,
    int poolSize,
    int writers) {

  /** Rows are kept 3 days by default. */
  public static final Duration DEFAULT_RETENTION = Duration.ofDays(3);

  /** 4,000 ended jobs per transaction by default: larger batches cost the database less per row. */
  public static final int DEFAULT_BATCH_SIZE = 4_000;

  /** Archiver threads per instance by default. */
  public static final int DEFAULT_WRITERS = 2;

  /** 1,000 rows per retention delete by default. */
  public static final int DEFAULT_RETENTION_BATCH_SIZE = 1_000;

  /** 1,000,000 outbox entries per queue by default. */
  public static final long DEFAULT_OUTBOX_MAX = 1_000_000;

  /** Largest batch size accepted: 10,000 ended jobs per transaction. */
  public static final int MAX_BATCH_SIZE = 10_000;

  /** Largest retention batch size accepted: 100,000 rows per delete. */
  public static final int MAX_RETENTION_BATCH_SIZE = 100_000;

  /** Largest outbox bound accepted: 100,000,000 entries per queue. */
  public static final long MAX_OUTBOX_MAX = 100_000_000;

  /**
   * The defaults for a database.
   *
   * @throws IllegalArgumentException when the URL is not of a supported database
   */
  public static ArchiveSettings defaults(String jdbcUrl) {
    return new ArchiveSettings(
        jdbcUrl,
        null,
        null,
        DEFAULT_RETENTION,
        DEFAULT_BATCH_SIZE,
        DEFAULT_RETENTION_BATCH_SIZE,
        DEFAULT_OUTBOX_MAX,
        Duration.ofMillis(100),
        Duration.ofSeconds(30),
        Duration.ofMinutes(1),
        4,
        DEFAULT_WRITERS);
  }

  /**
   * Checks the settings.
   *
   * @throws IllegalArgumentException naming the first setting out of range
   */
  public ArchiveSettings {
    Dialect.of(jdbcUrl);
    if (retention == null || retention.toMillis() < 1000) {
      throw new IllegalArgumentException("retention must be at least 1 s");
    }
    if (batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
      throw new IllegalArgumentException("batchSize must be 1 to " + MAX_BATCH_SIZE);
    }
    if (retentionBatchSize < 1 || retentionBatchSize > MAX_RETENTION_BATCH_SIZE) {
      throw new IllegalArgumentException(
          "retentionBatchSize must be 1 to " + MAX_RETENTION_BATCH_SIZE);
    }
    if (outboxMax < 1 || outboxMax > MAX_OUTBOX_MAX) {
      throw new IllegalArgumentException("outboxMax must be 1 to " + MAX_OUTBOX_MAX);
    }
    if (poolSize < 1 || poolSize > 100) {
      throw new IllegalArgumentException("poolSize must be 1 to 100");
    }
    if (writers < 1 || writers > 16 || writers >= poolSize) {
      throw new IllegalArgumentException("writers must be 1 to 16 and below poolSize");
    }
  }

  /** These settings with a user and password (null for none). */
  public ArchiveSettings withCredentials(String user, String password) {
    return new ArchiveSettings(
        jdbcUrl,
        user,
        password,
        retention,
        batchSize,
        retentionBatchSize,
        outboxMax,
        pollInterval,
        claimIdle,
        retentionInterval,
        poolSize,
        writers);
  }

  /** These settings with another retention, batch sizes and outbox bound. */
  public ArchiveSettings withLimits(
      Duration retention, int batchSize, int retentionBatchSize, long outboxMax) {
    return new ArchiveSettings(
        jdbcUrl,
        user,
        password,
        retention,
        batchSize,
        retentionBatchSize,
        outboxMax,
        pollInterval,
        claimIdle,
        retentionInterval,
        poolSize,
        writers);
  }

  /** These settings with other waits of the archiver and of retention. */
  public ArchiveSettings withTiming(
      Duration pollInterval, Duration claimIdle, Duration retentionInterval) {
    return new ArchiveSettings(
        jdbcUrl,
        user,
        password,
        retention,
        batchSize,
        retentionBatchSize,
        outboxMax,
        pollInterval,
        claimIdle,
        retentionInterval,
        poolSize,
        writers);
  }

  /** These settings with another number of archiver threads and database connections. */
  public ArchiveSettings withWriters(int writers, int poolSize) {
    return new ArchiveSettings(
        jdbcUrl,
        user,
        password,
        retention,
        batchSize,
        retentionBatchSize,
        outboxMax,
        pollInterval,
        claimIdle,
        retentionInterval,
        poolSize,
        writers);
  }

  /** The URL without its query, which may hold credentials: what logs may show. */
  public String safeUrl() {
    int query = jdbcUrl.indexOf('?');
    String base = query < 0 ? jdbcUrl : jdbcUrl.substring(0, query);
    // jdbc:mysql://user:password@host/db: drop the user part too.
    int at = base.indexOf('@');
    int scheme = base.indexOf("//");
    if (at > 0 && scheme > 0 && at > scheme) {
      base = base.substring(0, scheme + 2) + base.substring(at + 1);
    }
    return base;
  }

  @Override
  public String toString() {
    return "ArchiveSettings[" + safeUrl() + ", retention " + retention + "]";
  }
}
