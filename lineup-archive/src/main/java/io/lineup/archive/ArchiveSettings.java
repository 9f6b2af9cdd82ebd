package io.lineup.archive;

import java.time.Duration;

/**
 * How the archive runs; built with {@link #builder(String)}, which starts from the documented
 * defaults (docs/archive.md), or changed with {@link #mutate()}. Every bound is one of the named
 * constants below.
 *
 * @param jdbcUrl the database, {@code jdbc:postgresql:}, {@code jdbc:mysql:} or {@code
 *     jdbc:mariadb:}
 * @param user the database user, or null to take it from the URL
 * @param password the database password, or null; never logged
 * @param retention rows whose job ended longer ago than this are deleted (at least {@link
 *     #MIN_RETENTION})
 * @param batchSize most ended jobs written per database transaction (1 to {@link #MAX_BATCH_SIZE})
 * @param retentionBatchSize most rows one retention delete removes (1 to {@link
 *     #MAX_RETENTION_BATCH_SIZE})
 * @param outboxMax most entries each queue's outbox holds while the database is behind (1 to {@link
 *     #MAX_OUTBOX_MAX})
 * @param pollInterval wait between two rounds of the archiver when a round found nothing to do
 * @param claimIdle entries pending this long for another archiver (one that died) are taken over
 * @param retentionInterval wait between two retention rounds (each one instance at a time)
 * @param poolSize most database connections (1 to {@link #MAX_POOL_SIZE})
 * @param writers archiver threads of this instance, each a consumer of its own with its own
 *     database transactions (1 to {@link #MAX_WRITERS}, and below poolSize, leaving a connection
 *     for lookups)
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

  /** Shortest retention accepted: 1 s. */
  public static final Duration MIN_RETENTION = Duration.ofSeconds(1);

  /** 4,000 ended jobs per transaction by default: larger batches cost the database less per row. */
  public static final int DEFAULT_BATCH_SIZE = 4_000;

  /** Largest batch size accepted: 10,000 ended jobs per transaction. */
  public static final int MAX_BATCH_SIZE = 10_000;

  /** 1,000 rows per retention delete by default. */
  public static final int DEFAULT_RETENTION_BATCH_SIZE = 1_000;

  /** Largest retention batch size accepted: 100,000 rows per delete. */
  public static final int MAX_RETENTION_BATCH_SIZE = 100_000;

  /** 1,000,000 outbox entries per queue by default. */
  public static final long DEFAULT_OUTBOX_MAX = 1_000_000;

  /** Largest outbox bound accepted: 100,000,000 entries per queue. */
  public static final long MAX_OUTBOX_MAX = 100_000_000;

  /** 100 ms between two rounds of an archiver that found nothing to do, by default. */
  public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofMillis(100);

  /** Entries pending 30 s for another archiver are taken over, by default. */
  public static final Duration DEFAULT_CLAIM_IDLE = Duration.ofSeconds(30);

  /** A minute between two retention rounds by default. */
  public static final Duration DEFAULT_RETENTION_INTERVAL = Duration.ofMinutes(1);

  /** Database connections by default. */
  public static final int DEFAULT_POOL_SIZE = 4;

  /** Most database connections accepted. */
  public static final int MAX_POOL_SIZE = 100;

  /** Archiver threads per instance by default. */
  public static final int DEFAULT_WRITERS = 2;

  /** Most archiver threads per instance accepted. */
  public static final int MAX_WRITERS = 16;

  /**
   * Checks the settings.
   *
   * @throws IllegalArgumentException naming the first setting out of range
   */
  public ArchiveSettings {
    Dialect.of(jdbcUrl);
    if (retention == null || retention.compareTo(MIN_RETENTION) < 0) {
      throw new IllegalArgumentException(
          "retention must be at least " + MIN_RETENTION.toSeconds() + " s");
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
    if (poolSize < 1 || poolSize > MAX_POOL_SIZE) {
      throw new IllegalArgumentException("poolSize must be 1 to " + MAX_POOL_SIZE);
    }
    if (writers < 1 || writers > MAX_WRITERS || writers >= poolSize) {
      throw new IllegalArgumentException(
          "writers must be 1 to " + MAX_WRITERS + " and below poolSize");
    }
  }

  /**
   * The defaults for a database.
   *
   * @throws IllegalArgumentException when the URL is not of a supported database
   */
  public static ArchiveSettings defaults(String jdbcUrl) {
    return builder(jdbcUrl).build();
  }

  /**
   * A builder starting from the defaults for a database; {@link Builder#build()} checks the
   * settings.
   */
  public static Builder builder(String jdbcUrl) {
    return new Builder(jdbcUrl);
  }

  /** A builder starting from these settings, to change some of them. */
  public Builder mutate() {
    return new Builder(jdbcUrl)
        .user(user)
        .password(password)
        .retention(retention)
        .batchSize(batchSize)
        .retentionBatchSize(retentionBatchSize)
        .outboxMax(outboxMax)
        .pollInterval(pollInterval)
        .claimIdle(claimIdle)
        .retentionInterval(retentionInterval)
        .poolSize(poolSize)
        .writers(writers);
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

  /**
   * Builds {@link ArchiveSettings}; every setter returns this builder and nothing is checked until
   * {@link #build()}. The record's components say what each setting means.
   */
  public static final class Builder {
    private final String jdbcUrl;
    private String user;
    private String password;
    private Duration retention = DEFAULT_RETENTION;
    private int batchSize = DEFAULT_BATCH_SIZE;
    private int retentionBatchSize = DEFAULT_RETENTION_BATCH_SIZE;
    private long outboxMax = DEFAULT_OUTBOX_MAX;
    private Duration pollInterval = DEFAULT_POLL_INTERVAL;
    private Duration claimIdle = DEFAULT_CLAIM_IDLE;
    private Duration retentionInterval = DEFAULT_RETENTION_INTERVAL;
    private int poolSize = DEFAULT_POOL_SIZE;
    private int writers = DEFAULT_WRITERS;

    private Builder(String jdbcUrl) {
      this.jdbcUrl = jdbcUrl;
    }

    /** The database user (null to take it from the URL). */
    public Builder user(String value) {
      user = value;
      return this;
    }

    /** The database password (null for none). */
    public Builder password(String value) {
      password = value;
      return this;
    }

    /** How long rows are kept after their job ended. */
    public Builder retention(Duration value) {
      retention = value;
      return this;
    }

    /** Most ended jobs written per database transaction. */
    public Builder batchSize(int value) {
      batchSize = value;
      return this;
    }

    /** Most rows one retention delete removes. */
    public Builder retentionBatchSize(int value) {
      retentionBatchSize = value;
      return this;
    }

    /** Most entries each queue's outbox holds while the database is behind. */
    public Builder outboxMax(long value) {
      outboxMax = value;
      return this;
    }

    /** Wait between two rounds of an archiver that found nothing to do. */
    public Builder pollInterval(Duration value) {
      pollInterval = value;
      return this;
    }

    /** How long entries pend for another archiver before they are taken over. */
    public Builder claimIdle(Duration value) {
      claimIdle = value;
      return this;
    }

    /** Wait between two retention rounds. */
    public Builder retentionInterval(Duration value) {
      retentionInterval = value;
      return this;
    }

    /** Most database connections. */
    public Builder poolSize(int value) {
      poolSize = value;
      return this;
    }

    /** Archiver threads of this instance. */
    public Builder writers(int value) {
      writers = value;
      return this;
    }

    /**
     * The settings.
     *
     * @throws IllegalArgumentException naming the first setting out of range
     */
    public ArchiveSettings build() {
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
  }
}
