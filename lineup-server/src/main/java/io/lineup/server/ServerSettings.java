package io.lineup.server;

import static io.lineup.server.ServerSetting.ADMIN_TOKEN;
import static io.lineup.server.ServerSetting.ARCHIVE_BATCH_SIZE;
import static io.lineup.server.ServerSetting.ARCHIVE_JDBC_URL;
import static io.lineup.server.ServerSetting.ARCHIVE_OUTBOX_MAX;
import static io.lineup.server.ServerSetting.ARCHIVE_PASSWORD;
import static io.lineup.server.ServerSetting.ARCHIVE_RETENTION_BATCH_SIZE;
import static io.lineup.server.ServerSetting.ARCHIVE_RETENTION_MS;
import static io.lineup.server.ServerSetting.ARCHIVE_USER;
import static io.lineup.server.ServerSetting.DATA_DIR;
import static io.lineup.server.ServerSetting.EGRESS_ALLOW;
import static io.lineup.server.ServerSetting.HOST;
import static io.lineup.server.ServerSetting.LOG_REQUESTS;
import static io.lineup.server.ServerSetting.MAX_PAYLOAD_BYTES;
import static io.lineup.server.ServerSetting.METRICS_PUBLIC;
import static io.lineup.server.ServerSetting.PORT;
import static io.lineup.server.ServerSetting.REDIS_TIMEOUT_MS;
import static io.lineup.server.ServerSetting.REDIS_URL;
import static io.lineup.server.ServerSetting.SHUTDOWN_GRACE_MS;

import io.lineup.archive.ArchiveSettings;
import io.lineup.core.model.Limits;
import io.lineup.dispatch.egress.EgressAllowList;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * How a server runs: read from environment variables ({@code LINEUP_PORT}) and the same as
 * command-line flags ({@code --port=7700} or {@code --port 7700}) by {@link #parse}, where a flag
 * wins over the variable, or built in code:
 *
 * <pre>{@code
 * ServerSettings settings =
 *     ServerSettings.builder().host("127.0.0.1").port(0).redisUrl("redis://10.0.0.5:6379").build();
 * }</pre>
 *
 * <p>Every setting, its default and its bounds are listed in {@link ServerSetting}; the {@code
 * DEFAULT_*} constants hold the defaults. Settings are immutable and always valid: the constructor,
 * and so {@link Builder#build()} and {@link #parse}, refuse a value out of bounds with {@link
 * InvalidSettingException} naming the setting.
 *
 * @param host the address to bind; {@code 0.0.0.0} for every interface. Unset, it is {@value
 *     #EMBEDDED_DEFAULT_HOST} with the embedded Redis and {@value #DEFAULT_HOST} with a {@code
 *     redisUrl}
 * @param port the HTTP port; 0 picks a free one
 * @param redisUrl a Redis address for the engine, or null to run an embedded Redis
 * @param adminToken the admin token, or null to generate one and keep it in the data folder
 * @param dataDir the embedded Redis data and the generated admin token
 * @param metricsPublic whether {@code /metrics} answers without a token (else it needs the admin
 *     token)
 * @param maxPayloadBytes the largest job payload accepted
 * @param redisTimeout the longest wait for one Redis reply
 * @param shutdownGrace how long a shutdown waits for requests in progress
 * @param logRequests whether every request is logged (one line each)
 * @param archive the SQL archive of ended jobs (docs/archive.md), or null when it is off (no {@code
 *     LINEUP_ARCHIVE_JDBC_URL})
 * @param egressAllow the non-public addresses and hosts that dispatch tasks and callbacks may reach
 *     (docs/dispatch.md, "Egress and security"), a comma list as {@link EgressAllowList#parse}
 *     reads it; null or empty (the default, embedded Redis or not): public addresses only
 */
public record ServerSettings(
    String host,
    int port,
    String redisUrl,
    String adminToken,
    Path dataDir,
    boolean metricsPublic,
    int maxPayloadBytes,
    Duration redisTimeout,
    Duration shutdownGrace,
    boolean logRequests,
    ArchiveSettings archive,
    String egressAllow) {

  /** Default HTTP port. */
  public static final int DEFAULT_PORT = 7700;

  /** Default bind address with a {@code LINEUP_REDIS_URL}: every interface. */
  public static final String DEFAULT_HOST = "0.0.0.0";

  /**
   * Default bind address with the embedded Redis: this machine only, as Redis itself does, since
   * such a server is usually a developer's own (docs/operations.md says how to expose one).
   */
  public static final String EMBEDDED_DEFAULT_HOST = "127.0.0.1";

  /** Default data folder, relative to the working directory. */
  public static final String DEFAULT_DATA_DIR = "./lineup-data";

  /** Default Redis reply timeout, in milliseconds. */
  public static final long DEFAULT_REDIS_TIMEOUT_MS = 5_000;

  /** Default shutdown grace, in milliseconds. */
  public static final long DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

  /** Default for {@code /metrics}: public, answered without a token. */
  public static final boolean DEFAULT_METRICS_PUBLIC = true;

  /** Default for logging every request: off. */
  public static final boolean DEFAULT_LOG_REQUESTS = false;

  /** Shortest Redis reply timeout accepted, in milliseconds. */
  public static final long MIN_REDIS_TIMEOUT_MS = 100;

  /** Longest Redis reply timeout accepted, in milliseconds: one minute. */
  public static final long MAX_REDIS_TIMEOUT_MS = 60_000;

  /** Longest shutdown grace accepted, in milliseconds: ten minutes. */
  public static final long MAX_SHUTDOWN_GRACE_MS = 600_000;

  /** Shortest admin token accepted, in characters. */
  public static final int MIN_ADMIN_TOKEN_LENGTH = 16;

  /** Shortest archive retention accepted, in milliseconds: one minute. */
  public static final long MIN_ARCHIVE_RETENTION_MS = 60_000;

  /** Longest archive retention accepted, in milliseconds: ten years. */
  public static final long MAX_ARCHIVE_RETENTION_MS = 10L * 366 * 24 * 60 * 60 * 1000;

  /** Largest payload limit that may be configured: 16 MiB. */
  public static final int MAX_PAYLOAD_LIMIT = 16 * 1024 * 1024;

  /**
   * Settings with these values, checked.
   *
   * @throws InvalidSettingException when a value is missing or out of bounds (see {@link
   *     ServerSetting}); the message names the setting's variable and flag
   */
  public ServerSettings {
    if (host == null || host.isBlank()) {
      throw new InvalidSettingException(HOST.describe() + " must not be empty");
    }
    host = host.trim();
    PORT.check(port);
    redisUrl = emptyToNull(redisUrl);
    adminToken = adminToken(adminToken);
    if (dataDir == null) {
      throw new InvalidSettingException(DATA_DIR.describe() + " must not be empty");
    }
    MAX_PAYLOAD_BYTES.check(maxPayloadBytes);
    REDIS_TIMEOUT_MS.check(millis(REDIS_TIMEOUT_MS, redisTimeout));
    SHUTDOWN_GRACE_MS.check(millis(SHUTDOWN_GRACE_MS, shutdownGrace));
    egressAllow = emptyToNull(egressAllow);
    try {
      EgressAllowList.parse(egressAllow);
    } catch (IllegalArgumentException e) {
      throw new InvalidSettingException(EGRESS_ALLOW.describe() + ": " + e.getMessage());
    }
  }

  /** The egress allow list ({@link #egressAllow}), read. */
  public EgressAllowList egressAllowList() {
    return EgressAllowList.parse(egressAllow);
  }

  /** Settings with every default (embedded Redis, generated admin token). */
  public static ServerSettings defaults() {
    return builder().build();
  }

  /** A builder starting from every default ({@code DEFAULT_*}). */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from these settings, to change some of them. */
  public Builder mutate() {
    return new Builder()
        .host(host)
        .port(port)
        .redisUrl(redisUrl)
        .adminToken(adminToken)
        .dataDir(dataDir)
        .metricsPublic(metricsPublic)
        .maxPayloadBytes(maxPayloadBytes)
        .redisTimeout(redisTimeout)
        .shutdownGrace(shutdownGrace)
        .logRequests(logRequests)
        .archive(archive)
        .egressAllow(egressAllow);
  }

  /**
   * Reads the settings from environment variables and flags.
   *
   * @param environment variables, e.g. {@link System#getenv()}
   * @param args command-line arguments
   * @throws InvalidSettingException when a value is malformed or out of range, or a flag is
   *     unknown; the message names the setting
   */
  public static ServerSettings parse(Map<String, String> environment, List<String> args) {
    Map<ServerSetting, String> values = ServerFlags.read(environment, args);
    return builder()
        .host(values.containsKey(HOST) ? HOST.text(values.get(HOST)) : null)
        .port(PORT.intNumber(values.get(PORT)))
        .redisUrl(values.get(REDIS_URL))
        .adminToken(values.get(ADMIN_TOKEN))
        .dataDir(Path.of(DATA_DIR.text(values.get(DATA_DIR))))
        .metricsPublic(METRICS_PUBLIC.bool(values.get(METRICS_PUBLIC)))
        .maxPayloadBytes(MAX_PAYLOAD_BYTES.intNumber(values.get(MAX_PAYLOAD_BYTES)))
        .redisTimeout(Duration.ofMillis(REDIS_TIMEOUT_MS.number(values.get(REDIS_TIMEOUT_MS))))
        .shutdownGrace(Duration.ofMillis(SHUTDOWN_GRACE_MS.number(values.get(SHUTDOWN_GRACE_MS))))
        .logRequests(LOG_REQUESTS.bool(values.get(LOG_REQUESTS)))
        .archive(archive(values))
        .egressAllow(values.get(EGRESS_ALLOW))
        .build();
  }

  /** Whether ended jobs are archived in a database. */
  public boolean archiving() {
    return archive != null;
  }

  /** The archive's settings from the variables, or null without LINEUP_ARCHIVE_JDBC_URL. */
  private static ArchiveSettings archive(Map<ServerSetting, String> values) {
    String url = emptyToNull(values.get(ARCHIVE_JDBC_URL));
    if (url == null) {
      return null;
    }
    ArchiveSettings base;
    try {
      base = ArchiveSettings.defaults(url);
    } catch (IllegalArgumentException e) {
      throw new InvalidSettingException(ARCHIVE_JDBC_URL.describe() + " " + e.getMessage());
    }
    long retention = checked(ARCHIVE_RETENTION_MS, values);
    long batch = checked(ARCHIVE_BATCH_SIZE, values);
    long retentionBatch = checked(ARCHIVE_RETENTION_BATCH_SIZE, values);
    long outboxMax = checked(ARCHIVE_OUTBOX_MAX, values);
    return base.mutate()
        .user(emptyToNull(values.get(ARCHIVE_USER)))
        .password(emptyToNull(values.get(ARCHIVE_PASSWORD)))
        .retention(Duration.ofMillis(retention))
        .batchSize((int) batch)
        .retentionBatchSize((int) retentionBatch)
        .outboxMax(outboxMax)
        .build();
  }

  /** A number setting, given or its default, within the bounds of {@link ServerSetting}. */
  private static long checked(ServerSetting setting, Map<ServerSetting, String> values) {
    long value = setting.number(values.get(setting));
    setting.check(value);
    return value;
  }

  /** Whether the server runs its own Redis. */
  public boolean embeddedRedis() {
    return redisUrl == null;
  }

  private static long millis(ServerSetting setting, Duration duration) {
    if (duration == null) {
      throw new InvalidSettingException(setting.describe() + " must not be empty");
    }
    try {
      return duration.toMillis();
    } catch (ArithmeticException tooLong) {
      return Long.MAX_VALUE;
    }
  }

  private static String adminToken(String token) {
    String value = emptyToNull(token);
    if (value != null && value.length() < MIN_ADMIN_TOKEN_LENGTH) {
      throw new InvalidSettingException(
          ADMIN_TOKEN.describe()
              + " must be at least "
              + MIN_ADMIN_TOKEN_LENGTH
              + " characters (leave it unset to have one generated)");
    }
    if (value != null && !value.chars().allMatch(c -> c > 32 && c < 127)) {
      throw new InvalidSettingException(
          ADMIN_TOKEN.describe() + " may only contain printable ASCII without spaces");
    }
    return value;
  }

  private static String emptyToNull(String value) {
    return value == null || value.isBlank() ? null : value.trim();
  }

  /**
   * Builds {@link ServerSettings}, starting from every default. Each method sets one setting and
   * returns this builder; {@link #build()} checks them all.
   */
  public static final class Builder {
    private String host; // null: chosen by the Redis mode when built
    private int port = DEFAULT_PORT;
    private String redisUrl;
    private String adminToken;
    private Path dataDir = Path.of(DEFAULT_DATA_DIR);
    private boolean metricsPublic = DEFAULT_METRICS_PUBLIC;
    private int maxPayloadBytes = Limits.DEFAULT_MAX_PAYLOAD_BYTES;
    private Duration redisTimeout = Duration.ofMillis(DEFAULT_REDIS_TIMEOUT_MS);
    private Duration shutdownGrace = Duration.ofMillis(DEFAULT_SHUTDOWN_GRACE_MS);
    private boolean logRequests = DEFAULT_LOG_REQUESTS;
    private ArchiveSettings archive;
    private String egressAllow;

    private Builder() {}

    /**
     * The non-public addresses and hosts dispatch tasks and callbacks may reach, as a comma list
     * ({@link EgressAllowList#parse}), e.g. {@code 127.0.0.1} for targets on this machine or {@code
     * 10.20.0.0/16,billing.internal:8443}; null (the default) allows public addresses only.
     */
    public Builder egressAllow(String egressAllow) {
      this.egressAllow = egressAllow;
      return this;
    }

    /** The SQL archive of ended jobs (docs/archive.md); null (the default) leaves archiving off. */
    public Builder archive(ArchiveSettings archive) {
      this.archive = archive;
      return this;
    }

    /**
     * The address to bind, e.g. {@code 127.0.0.1}; by default {@value
     * ServerSettings#EMBEDDED_DEFAULT_HOST} (this machine only) with the embedded Redis and {@value
     * ServerSettings#DEFAULT_HOST} (every interface) with a {@link #redisUrl}.
     */
    public Builder host(String host) {
      this.host = host;
      return this;
    }

    /**
     * The HTTP port, 0 to 65535; 0 picks a free one; default {@value ServerSettings#DEFAULT_PORT}.
     */
    public Builder port(int port) {
      this.port = port;
      return this;
    }

    /**
     * The Redis the engine uses (see {@link ServerSetting#REDIS_URL} for the forms); null (the
     * default) runs an embedded Redis under the data folder.
     */
    public Builder redisUrl(String redisUrl) {
      this.redisUrl = redisUrl;
      return this;
    }

    /**
     * The admin token, at least {@value ServerSettings#MIN_ADMIN_TOKEN_LENGTH} printable ASCII
     * characters without spaces; null (the default) generates one and keeps it in the data folder.
     */
    public Builder adminToken(String adminToken) {
      this.adminToken = adminToken;
      return this;
    }

    /**
     * The folder of the embedded Redis's data and the generated admin token; default {@value
     * ServerSettings#DEFAULT_DATA_DIR}.
     */
    public Builder dataDir(Path dataDir) {
      this.dataDir = dataDir;
      return this;
    }

    /** Whether {@code /metrics} answers without a token; default true. */
    public Builder metricsPublic(boolean metricsPublic) {
      this.metricsPublic = metricsPublic;
      return this;
    }

    /**
     * The largest job payload accepted, in bytes, 1 to 16 MiB; default 1 MiB ({@link
     * Limits#DEFAULT_MAX_PAYLOAD_BYTES}).
     */
    public Builder maxPayloadBytes(int maxPayloadBytes) {
      this.maxPayloadBytes = maxPayloadBytes;
      return this;
    }

    /**
     * The longest wait for one Redis reply, 100 ms to 1 minute (millisecond precision); default
     * {@value ServerSettings#DEFAULT_REDIS_TIMEOUT_MS} ms.
     */
    public Builder redisTimeout(Duration redisTimeout) {
      this.redisTimeout = redisTimeout;
      return this;
    }

    /**
     * How long a shutdown lets requests in progress finish, 0 to 10 minutes; default {@value
     * ServerSettings#DEFAULT_SHUTDOWN_GRACE_MS} ms.
     */
    public Builder shutdownGrace(Duration shutdownGrace) {
      this.shutdownGrace = shutdownGrace;
      return this;
    }

    /** Whether every request is logged, one line each; default false. */
    public Builder logRequests(boolean logRequests) {
      this.logRequests = logRequests;
      return this;
    }

    /**
     * The settings.
     *
     * @throws InvalidSettingException when a value is missing or out of bounds; the message names
     *     the setting's variable and flag
     */
    public ServerSettings build() {
      String redis = emptyToNull(redisUrl);
      return new ServerSettings(
          host != null ? host : redis == null ? EMBEDDED_DEFAULT_HOST : DEFAULT_HOST,
          port,
          redisUrl,
          adminToken,
          dataDir,
          metricsPublic,
          maxPayloadBytes,
          redisTimeout,
          shutdownGrace,
          logRequests,
          archive,
          egressAllow);
    }
  }
}
