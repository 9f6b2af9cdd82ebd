package io.lineup.server;

import io.lineup.core.Limits;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How a server runs: read from environment variables ({@code LINEUP_PORT}) and the same as
 * command-line flags ({@code --port=7700} or {@code --port 7700}); a flag wins over the variable.
 * Every setting, its default and its bounds are listed in {@link Setting}.
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
    boolean logRequests) {

  /** Default HTTP port. */
  public static final int DEFAULT_PORT = 7700;

  /** Default bind address with a {@code LINEUP_REDIS_URL}: every interface. */
  public static final String DEFAULT_HOST = "0.0.0.0";

  /**
   * Default bind address with the embedded Redis: this machine only, as Redis itself does, since
   * such a server is usually a developer's own (docs/server.md says how to expose one).
   */
  public static final String EMBEDDED_DEFAULT_HOST = "127.0.0.1";

  /** Default data folder, relative to the working directory. */
  public static final String DEFAULT_DATA_DIR = "./lineup-data";

  /** Default Redis reply timeout, in milliseconds. */
  public static final long DEFAULT_REDIS_TIMEOUT_MS = 5_000;

  /** Default shutdown grace, in milliseconds. */
  public static final long DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

  /** Shortest admin token accepted, in characters. */
  public static final int MIN_ADMIN_TOKEN_LENGTH = 16;

  /** Largest payload limit that may be configured: 16 MiB. */
  public static final int MAX_PAYLOAD_LIMIT = 16 * 1024 * 1024;

  /** One setting: its environment variable, its flag and its default as text. */
  public enum Setting {
    HOST("LINEUP_HOST", "--host", null),
    PORT("LINEUP_PORT", "--port", Integer.toString(DEFAULT_PORT)),
    REDIS_URL("LINEUP_REDIS_URL", "--redis-url", null),
    ADMIN_TOKEN("LINEUP_ADMIN_TOKEN", "--admin-token", null),
    DATA_DIR("LINEUP_DATA_DIR", "--data-dir", DEFAULT_DATA_DIR),
    METRICS_PUBLIC("LINEUP_METRICS_PUBLIC", "--metrics-public", "true"),
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
    LOG_REQUESTS("LINEUP_LOG_REQUESTS", "--log-requests", "false");

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
     * docs/server.md).
     */
    public String defaultValue() {
      return defaultValue;
    }
  }

  /** Settings with every default (embedded Redis, generated admin token). */
  public static ServerSettings defaults() {
    return parse(Map.of(), List.of());
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
    String redisUrl = emptyToNull(values.get(Setting.REDIS_URL));
    return new ServerSettings(
        values.containsKey(Setting.HOST)
            ? text(values, Setting.HOST)
            : redisUrl == null ? EMBEDDED_DEFAULT_HOST : DEFAULT_HOST,
        (int) number(values, Setting.PORT, 0, 65_535),
        redisUrl,
        adminToken(values.get(Setting.ADMIN_TOKEN)),
        Path.of(text(values, Setting.DATA_DIR)),
        bool(values, Setting.METRICS_PUBLIC),
        (int) number(values, Setting.MAX_PAYLOAD_BYTES, 1, MAX_PAYLOAD_LIMIT),
        Duration.ofMillis(number(values, Setting.REDIS_TIMEOUT_MS, 100, 60_000)),
        Duration.ofMillis(number(values, Setting.SHUTDOWN_GRACE_MS, 0, 600_000)),
        bool(values, Setting.LOG_REQUESTS));
  }

  /** A copy on another port. */
  public ServerSettings withPort(int newPort) {
    return new ServerSettings(
        host,
        newPort,
        redisUrl,
        adminToken,
        dataDir,
        metricsPublic,
        maxPayloadBytes,
        redisTimeout,
        shutdownGrace,
        logRequests);
  }

  /** A copy using this Redis (null for embedded). */
  public ServerSettings withRedisUrl(String url) {
    return new ServerSettings(
        host,
        port,
        url,
        adminToken,
        dataDir,
        metricsPublic,
        maxPayloadBytes,
        redisTimeout,
        shutdownGrace,
        logRequests);
  }

  /** A copy with this admin token (null to generate). */
  public ServerSettings withAdminToken(String token) {
    return new ServerSettings(
        host,
        port,
        redisUrl,
        adminToken(token),
        dataDir,
        metricsPublic,
        maxPayloadBytes,
        redisTimeout,
        shutdownGrace,
        logRequests);
  }

  /** A copy with this data folder. */
  public ServerSettings withDataDir(Path dir) {
    return new ServerSettings(
        host,
        port,
        redisUrl,
        adminToken,
        dir,
        metricsPublic,
        maxPayloadBytes,
        redisTimeout,
        shutdownGrace,
        logRequests);
  }

  /** A copy with {@code /metrics} public or not. */
  public ServerSettings withMetricsPublic(boolean open) {
    return new ServerSettings(
        host,
        port,
        redisUrl,
        adminToken,
        dataDir,
        open,
        maxPayloadBytes,
        redisTimeout,
        shutdownGrace,
        logRequests);
  }

  /** A copy with this bind address. */
  public ServerSettings withHost(String address) {
    return new ServerSettings(
        address,
        port,
        redisUrl,
        adminToken,
        dataDir,
        metricsPublic,
        maxPayloadBytes,
        redisTimeout,
        shutdownGrace,
        logRequests);
  }

  /** A copy that logs every request or not. */
  public ServerSettings withLogRequests(boolean log) {
    return new ServerSettings(
        host,
        port,
        redisUrl,
        adminToken,
        dataDir,
        metricsPublic,
        maxPayloadBytes,
        redisTimeout,
        shutdownGrace,
        log);
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

  private static long number(Map<Setting, String> values, Setting setting, long min, long max) {
    String value = text(values, setting);
    long parsed;
    try {
      parsed = Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new InvalidSettingException(
          describe(setting) + " must be a whole number, got '" + value + "'");
    }
    if (parsed < min || parsed > max) {
      throw new InvalidSettingException(
          describe(setting) + " must be between " + min + " and " + max + ", got " + parsed);
    }
    return parsed;
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
}
