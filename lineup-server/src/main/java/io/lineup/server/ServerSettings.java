package io.lineup.server;

import io.lineup.archive.ArchiveSettings;
import io.lineup.core.Limits;
import io.lineup.server.egress.EgressAllowList;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
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
 * <p>Every setting, its default and its bounds are listed in {@link Setting}; the {@code DEFAULT_*}
 * constants hold the defaults. Settings are immutable and always valid: the constructor, and so
 * {@link Builder#build()} and {@link #parse}, refuse a value out of bounds with {@link
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

  /** One setting: its environment variable, its flag and its default as text. */
  public enum Setting {
    HOST("LINEUP_HOST", "--host", null),
    PORT("LINEUP_PORT", "--port", Integer.toString(DEFAULT_PORT)),
    REDIS_URL("LINEUP_REDIS_URL", "--redis-url", null),
    ADMIN_TOKEN("LINEUP_ADMIN_TOKEN", "--admin-token", null),
    DATA_DIR("LINEUP_DATA_DIR", "--data-dir", DEFAULT_DATA_DIR),
    METRICS_PUBLIC(
        "LINEUP_METRICS_PUBLIC", "--metrics-public", Boolean.toString(DEFAULT_METRICS_PUBLIC)),
    MAX_PAYLOAD_BYTES(
        "LINEUP_MAX_PAYLOAD_BYTES",
        "--max-payload-bytes",
        Integer.toString(Limits.DEFAULT_MAX_PAYLOAD_BYTES)),
    REDIS_TIMEOUT_MS(
        "LINEUP_REDIS_TIMEOUT_MS", "--redis-timeout-ms", Long.toString(DEFAULT_REDIS_TIMEOUT_MS)),
    SHUTDOWN_GRACE_MS(
        "LINEUP_SHUTDOWN_GRACE_MS",
        "--shutdown-grace-ms",
        Long.toString(DEFAULT_SHUTDOWN_GRACE_MS)),
    LOG_REQUESTS("LINEUP_LOG_REQUESTS", "--log-requests", Boolean.toString(DEFAULT_LOG_REQUESTS)),
    ARCHIVE_JDBC_URL("LINEUP_ARCHIVE_JDBC_URL", "--archive-jdbc-url", null),
    ARCHIVE_USER("LINEUP_ARCHIVE_USER", "--archive-user", null),
    ARCHIVE_PASSWORD("LINEUP_ARCHIVE_PASSWORD", "--archive-password", null),
    ARCHIVE_RETENTION_MS(
        "LINEUP_ARCHIVE_RETENTION_MS",
        "--archive-retention-ms",
        Long.toString(ArchiveSettings.DEFAULT_RETENTION.toMillis())),
    ARCHIVE_BATCH_SIZE(
        "LINEUP_ARCHIVE_BATCH_SIZE",
        "--archive-batch-size",
        Integer.toString(ArchiveSettings.DEFAULT_BATCH_SIZE)),
    ARCHIVE_RETENTION_BATCH_SIZE(
        "LINEUP_ARCHIVE_RETENTION_BATCH_SIZE",
        "--archive-retention-batch-size",
        Integer.toString(ArchiveSettings.DEFAULT_RETENTION_BATCH_SIZE)),
    ARCHIVE_OUTBOX_MAX(
        "LINEUP_ARCHIVE_OUTBOX_MAX",
        "--archive-outbox-max",
        Long.toString(ArchiveSettings.DEFAULT_OUTBOX_MAX)),
    EGRESS_ALLOW("LINEUP_EGRESS_ALLOW", "--egress-allow", null);

    private final String variable;
    private final String flag;
    private final String defaultValue;

    Setting(String variable, String flag, String defaultValue) {
      this.variable = variable;
      this.flag = flag;
      this.defaultValue = defaultValue;
    }

    /** The environment variable, e.g. {@code LINEUP_PORT}. */
    public String variable() {
      return variable;
    }

    /** The flag, e.g. {@code --port}. */
    public String flag() {
      return flag;
    }

    /**
     * The default as text, or null when there is none or it depends on another setting (see
     * docs/operations.md).
     */
    public String defaultValue() {
      return defaultValue;
    }
  }

  /**
   * Settings with these values, checked.
   *
   * @throws InvalidSettingException when a value is missing or out of bounds (see {@link Setting});
   *     the message names the setting's variable and flag
   */
  public ServerSettings {
    if (host == null || host.isBlank()) {
      throw new InvalidSettingException(describe(Setting.HOST) + " must not be empty");
    }
    host = host.trim();
    within(Setting.PORT, port, 0, 65_535);
    redisUrl = emptyToNull(redisUrl);
    adminToken = adminToken(adminToken);
    if (dataDir == null) {
      throw new InvalidSettingException(describe(Setting.DATA_DIR) + " must not be empty");
    }
    within(Setting.MAX_PAYLOAD_BYTES, maxPayloadBytes, 1, MAX_PAYLOAD_LIMIT);
    within(
        Setting.REDIS_TIMEOUT_MS,
        millis(Setting.REDIS_TIMEOUT_MS, redisTimeout),
        MIN_REDIS_TIMEOUT_MS,
        MAX_REDIS_TIMEOUT_MS);
    within(
        Setting.SHUTDOWN_GRACE_MS,
        millis(Setting.SHUTDOWN_GRACE_MS, shutdownGrace),
        0,
        MAX_SHUTDOWN_GRACE_MS);
    egressAllow = emptyToNull(egressAllow);
    try {
      EgressAllowList.parse(egressAllow);
    } catch (IllegalArgumentException e) {
      throw new InvalidSettingException(describe(Setting.EGRESS_ALLOW) + ": " + e.getMessage());
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
    Map<Setting, String> values = new LinkedHashMap<>();
    for (Setting setting : Setting.values()) {
      String value = environment.get(setting.variable);
      if (value != null && !value.isBlank()) {
        values.put(setting, value.trim());
      }
    }
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      String name = arg;
      String value = null;
      int equals = arg.indexOf('=');
      if (equals > 0) {
        name = arg.substring(0, equals);
        value = arg.substring(equals + 1);
      }
      Setting setting = byFlag(name);
      if (value == null) {
        if (i + 1 >= args.size()) {
          throw new InvalidSettingException(name + " needs a value, e.g. " + name + "=...");
        }
        value = args.get(++i);
      }
      values.put(setting, value.trim());
    }
    return builder()
        .host(values.containsKey(Setting.HOST) ? text(values, Setting.HOST) : null)
        .port(intNumber(values, Setting.PORT))
        .redisUrl(values.get(Setting.REDIS_URL))
        .adminToken(values.get(Setting.ADMIN_TOKEN))
        .dataDir(Path.of(text(values, Setting.DATA_DIR)))
        .metricsPublic(bool(values, Setting.METRICS_PUBLIC))
        .maxPayloadBytes(intNumber(values, Setting.MAX_PAYLOAD_BYTES))
        .redisTimeout(Duration.ofMillis(number(values, Setting.REDIS_TIMEOUT_MS)))
        .shutdownGrace(Duration.ofMillis(number(values, Setting.SHUTDOWN_GRACE_MS)))
        .logRequests(bool(values, Setting.LOG_REQUESTS))
        .archive(archive(values))
        .egressAllow(values.get(Setting.EGRESS_ALLOW))
        .build();
  }

  /** Whether ended jobs are archived in a database. */
  public boolean archiving() {
    return archive != null;
  }

  /** The archive's settings from the variables, or null without LINEUP_ARCHIVE_JDBC_URL. */
  private static ArchiveSettings archive(Map<Setting, String> values) {
    String url = emptyToNull(values.get(Setting.ARCHIVE_JDBC_URL));
    if (url == null) {
      return null;
    }
    ArchiveSettings base;
    try {
      base = ArchiveSettings.defaults(url);
    } catch (IllegalArgumentException e) {
      throw new InvalidSettingException(describe(Setting.ARCHIVE_JDBC_URL) + " " + e.getMessage());
    }
    long retention = number(values, Setting.ARCHIVE_RETENTION_MS);
    within(
        Setting.ARCHIVE_RETENTION_MS,
        retention,
        MIN_ARCHIVE_RETENTION_MS,
        MAX_ARCHIVE_RETENTION_MS);
    long batch = number(values, Setting.ARCHIVE_BATCH_SIZE);
    within(Setting.ARCHIVE_BATCH_SIZE, batch, 1, 10_000);
    long retentionBatch = number(values, Setting.ARCHIVE_RETENTION_BATCH_SIZE);
    within(Setting.ARCHIVE_RETENTION_BATCH_SIZE, retentionBatch, 1, 100_000);
    long outboxMax = number(values, Setting.ARCHIVE_OUTBOX_MAX);
    within(Setting.ARCHIVE_OUTBOX_MAX, outboxMax, 1, 100_000_000);
    return base.withCredentials(
            emptyToNull(values.get(Setting.ARCHIVE_USER)),
            emptyToNull(values.get(Setting.ARCHIVE_PASSWORD)))
        .withLimits(Duration.ofMillis(retention), (int) batch, (int) retentionBatch, outboxMax);
  }

  /** Whether the server runs its own Redis. */
  public boolean embeddedRedis() {
    return redisUrl == null;
  }

  private static Setting byFlag(String flag) {
    for (Setting setting : Setting.values()) {
      if (setting.flag.equals(flag)) {
        return setting;
      }
    }
    throw new InvalidSettingException("unknown flag " + flag + "; known flags: " + knownFlags());
  }

  private static String knownFlags() {
    StringBuilder flags = new StringBuilder();
    for (Setting setting : Setting.values()) {
      flags.append(flags.isEmpty() ? "" : ", ").append(setting.flag);
    }
    return flags.toString();
  }

  private static String text(Map<Setting, String> values, Setting setting) {
    String value = values.getOrDefault(setting, setting.defaultValue);
    if (value == null || value.isBlank()) {
      throw new InvalidSettingException(describe(setting) + " must not be empty");
    }
    return value;
  }

  private static long number(Map<Setting, String> values, Setting setting) {
    String value = text(values, setting);
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new InvalidSettingException(
          describe(setting) + " must be a whole number, got '" + value + "'");
    }
  }

  private static int intNumber(Map<Setting, String> values, Setting setting) {
    long parsed = number(values, setting);
    if (parsed != (int) parsed) {
      throw new InvalidSettingException(describe(setting) + " is out of range, got " + parsed);
    }
    return (int) parsed;
  }

  private static void within(Setting setting, long value, long min, long max) {
    if (value < min || value > max) {
      throw new InvalidSettingException(
          describe(setting) + " must be between " + min + " and " + max + ", got " + value);
    }
  }

  private static long millis(Setting setting, Duration duration) {
    if (duration == null) {
      throw new InvalidSettingException(describe(setting) + " must not be empty");
    }
    try {
      return duration.toMillis();
    } catch (ArithmeticException tooLong) {
      return Long.MAX_VALUE;
    }
  }

  private static boolean bool(Map<Setting, String> values, Setting setting) {
    String value = text(values, setting).toLowerCase(Locale.ROOT);
    return switch (value) {
      case "true", "yes", "1", "on" -> true;
      case "false", "no", "0", "off" -> false;
      default ->
          throw new InvalidSettingException(
              describe(setting) + " must be true or false, got '" + value + "'");
    };
  }

  private static String adminToken(String token) {
    String value = emptyToNull(token);
    if (value != null && value.length() < MIN_ADMIN_TOKEN_LENGTH) {
      throw new InvalidSettingException(
          describe(Setting.ADMIN_TOKEN)
              + " must be at least "
              + MIN_ADMIN_TOKEN_LENGTH
              + " characters (leave it unset to have one generated)");
    }
    if (value != null && !value.chars().allMatch(c -> c > 32 && c < 127)) {
      throw new InvalidSettingException(
          describe(Setting.ADMIN_TOKEN) + " may only contain printable ASCII without spaces");
    }
    return value;
  }

  private static String emptyToNull(String value) {
    return value == null || value.isBlank() ? null : value.trim();
  }

  private static String describe(Setting setting) {
    return setting.variable + " (" + setting.flag + ")";
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
     * The Redis the engine uses (see {@link Setting#REDIS_URL} for the forms); null (the default)
     * runs an embedded Redis under the data folder.
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
