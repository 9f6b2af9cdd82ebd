package io.lineup.core.model;

import io.lineup.api.QueueSettingField;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The one definition of each queue setting: its name in the Java API, in the HTTP API and in Redis,
 * its type, bounds, default and meaning. The engine's checks, the stored form, the HTTP server's
 * JSON and the settings tables of the docs all follow these definitions; a test checks that the Lua
 * scripts' defaults ({@code lib/settings.lua}) and the docs agree with them.
 *
 * <p>The backoff is four settings of the group {@code backoff}: in Java they form one {@link
 * Backoff}, in JSON one object, and in Redis four fields.
 *
 * <p>Values are handed in and out in the JSON-like form of their {@link Type}: {@code Boolean} for
 * {@link Type#BOOLEAN}, {@code Long} for {@link Type#INTEGER} and {@link Type#MILLIS}
 * (milliseconds), {@code Double} for {@link Type#FRACTION} and a lower-case {@code String} for
 * {@link Type#CHOICE}.
 */
public enum QueueSetting {
  /** Whether the queue is paused. */
  PAUSED(
      Type.BOOLEAN,
      null,
      "paused",
      "paused",
      QueueSettingField.PAUSED,
      0,
      1,
      false,
      QueueSettings::paused,
      "leases return nothing while paused; publishing still works"),

  /** Most leases per sliding second. */
  RATE_LIMIT(
      Type.INTEGER,
      null,
      "rateLimit",
      "rate",
      QueueSettingField.RATE_LIMIT,
      0,
      100_000,
      0L,
      QueueSettings::rateLimit,
      "most leases per sliding period (rate_period_ms, default a second) across all consumers;"
          + " 0 = no limit"),

  /** The period of the rate limit. */
  RATE_PERIOD(
      Type.MILLIS,
      null,
      "ratePeriod",
      "rate_period_ms",
      QueueSettingField.RATE_PERIOD,
      10,
      24L * 60 * 60 * 1000,
      1000L,
      QueueSettings::ratePeriod,
      "the period of the rate limit: at most rate_limit leases in any sliding period of this length"),

  /** How many leases may start at once under a rate limit. */
  RATE_BURST(
      Type.INTEGER,
      null,
      "rateBurst",
      "rate_burst",
      QueueSettingField.RATE_BURST,
      0,
      100_000,
      0L,
      QueueSettings::rateBurst,
      "0: the whole rate may be leased at once; n: at most n at once, then the leases are spaced"
          + " evenly, one per rate_period_ms / rate_limit"),

  /** Most jobs leased at once. */
  CONCURRENCY_LIMIT(
      Type.INTEGER,
      null,
      "concurrencyLimit",
      "concurrency",
      QueueSettingField.CONCURRENCY_LIMIT,
      0,
      1_000_000,
      0L,
      QueueSettings::concurrencyLimit,
      "most jobs leased at once across all consumers; 0 = no limit"),

  /** Deliveries of a job that names none before it goes to dead letters. */
  MAX_ATTEMPTS(
      Type.INTEGER,
      null,
      "maxAttempts",
      "max_attempts",
      QueueSettingField.MAX_ATTEMPTS,
      1,
      Limits.MAX_ATTEMPTS,
      3L,
      QueueSettings::maxAttempts,
      "deliveries before dead letters, for jobs that set none"),

  /** Lease length of a job that names none. */
  TIME_TO_RUN(
      Type.MILLIS,
      null,
      "timeToRun",
      "ttr_ms",
      QueueSettingField.TIME_TO_RUN,
      Limits.MIN_TTR_MS,
      Limits.MAX_TTR_MS,
      Duration.ofSeconds(30).toMillis(),
      QueueSettings::timeToRun,
      "lease length, for jobs that set none"),

  /** Shape of the retry waits. */
  BACKOFF_KIND(
      Type.CHOICE,
      "backoff",
      "kind",
      "backoff",
      QueueSettingField.BACKOFF_KIND,
      0,
      0,
      "exponential",
      s -> s.backoff() == null ? null : s.backoff().kind(),
      "fixed: each retry waits the initial wait; exponential: the wait doubles with each"
          + " attempt, up to the max"),

  /** First retry wait. */
  BACKOFF_INITIAL(
      Type.MILLIS,
      "backoff",
      "initial",
      "backoff_ms",
      QueueSettingField.BACKOFF_INITIAL,
      0,
      Duration.ofDays(1).toMillis(),
      Duration.ofSeconds(1).toMillis(),
      s -> s.backoff() == null ? null : s.backoff().initial(),
      "wait before the first retry, when a nack names no delay"),

  /** Longest retry wait. */
  BACKOFF_MAX(
      Type.MILLIS,
      "backoff",
      "max",
      "backoff_max_ms",
      QueueSettingField.BACKOFF_MAX,
      0,
      Duration.ofDays(1).toMillis(),
      Duration.ofMinutes(5).toMillis(),
      s -> s.backoff() == null ? null : s.backoff().max(),
      "longest wait between retries"),

  /** Random shortening of retry waits. */
  BACKOFF_JITTER(
      Type.FRACTION,
      "backoff",
      "jitter",
      "backoff_jitter",
      QueueSettingField.BACKOFF_JITTER,
      0,
      1,
      0.2,
      s -> s.backoff() == null ? null : s.backoff().jitter(),
      "largest fraction a wait is shortened by at random, so jobs that failed together"
          + " do not retry together"),

  /** How long finished records are kept. */
  RETENTION(
      Type.MILLIS,
      null,
      "retention",
      "retention_ms",
      QueueSettingField.RETENTION,
      0,
      Duration.ofDays(30).toMillis(),
      Duration.ofHours(1).toMillis(),
      QueueSettings::retention,
      "how long finished records (done, cancelled, expired) are kept; 0 deletes them at once"),

  /** How many finished records are kept. */
  RETENTION_MAX(
      Type.INTEGER,
      null,
      "retentionMax",
      "retention_max",
      QueueSettingField.RETENTION_MAX,
      0,
      10_000_000,
      10_000L,
      QueueSettings::retentionMax,
      "most finished records kept per queue, oldest dropped first"),

  /** How long serving one job is expected to take, for ETAs before any is measured. */
  EXPECTED_SERVICE_TIME(
      Type.MILLIS,
      null,
      "expectedServiceTime",
      "expected_service_ms",
      QueueSettingField.EXPECTED_SERVICE_TIME,
      0,
      Duration.ofDays(1).toMillis(),
      0L,
      QueueSettings::expectedServiceTime,
      "time one job is expected to take from lease to ack, which ETAs use until the queue has"
          + " served jobs in the last minute; 0 = none"),

  /** Replicas that must hold a publish before it is answered, for publishes that name none. */
  DURABLE_REPLICAS(
      Type.INTEGER,
      null,
      "durableReplicas",
      "durable_replicas",
      QueueSettingField.DURABLE_REPLICAS,
      0,
      Durability.MAX_REPLICAS,
      0L,
      QueueSettings::durableReplicas,
      "Redis replicas that must acknowledge a publish (WAIT, at most 1 s) before it is answered,"
          + " for publishes that name none; 0 = answer at once"),

  /** Whether the queue serves its fairness keys in turn. */
  FAIR(
      Type.BOOLEAN,
      null,
      "fair",
      "fair",
      QueueSettingField.FAIR,
      0,
      1,
      false,
      QueueSettings::fair,
      "serve the jobs' fairness keys in turn (weighted), not in arrival order; switch it on an"
          + " empty queue"),

  /** Most jobs of one fairness key leased at once, for keys without a limit of their own. */
  KEY_CONCURRENCY(
      Type.INTEGER,
      null,
      "keyConcurrency",
      "key_concurrency",
      QueueSettingField.KEY_CONCURRENCY,
      0,
      1_000_000,
      0L,
      QueueSettings::keyConcurrency,
      "fair queue: most jobs of one key leased at once, for keys without their own; 0 = no limit"),

  /** Most leases of one fairness key per key rate period, for keys without a rate of their own. */
  KEY_RATE(
      Type.INTEGER,
      null,
      "keyRate",
      "key_rate",
      QueueSettingField.KEY_RATE,
      0,
      100_000,
      0L,
      QueueSettings::keyRate,
      "fair queue: most leases of one key per key_rate_period_ms, evenly spaced, for keys without"
          + " their own; 0 = no limit"),

  /** The period of the per-key rate. */
  KEY_RATE_PERIOD(
      Type.MILLIS,
      null,
      "keyRatePeriod",
      "key_rate_period_ms",
      QueueSettingField.KEY_RATE_PERIOD,
      10,
      24L * 60 * 60 * 1000,
      1000L,
      QueueSettings::keyRatePeriod,
      "fair queue: the period of key_rate"),

  /** Most jobs of one fairness key waiting, for keys without a limit of their own. */
  KEY_MAX_WAITING(
      Type.INTEGER,
      null,
      "keyMaxWaiting",
      "key_max_waiting",
      QueueSettingField.KEY_MAX_WAITING,
      0,
      1_000_000_000,
      0L,
      QueueSettings::keyMaxWaiting,
      "fair queue: most jobs of one key waiting (ready, delayed or held by a pause); a publish"
          + " past it is refused; 0 = no limit");

  /** The kinds of value a setting holds. */
  public enum Type {
    /** True or false; stored as 1 or 0. */
    BOOLEAN,
    /** A whole number within {@link #min()} and {@link #max()}. */
    INTEGER,
    /**
     * A duration, in whole milliseconds within {@link #min()} and {@link #max()}; a {@link
     * Duration} in Java.
     */
    MILLIS,
    /** A number within {@link #min()} and {@link #max()}, fractions allowed. */
    FRACTION,
    /** One of {@link #choices()}, in lower case; an enum constant in Java. */
    CHOICE
  }

  private static final long SECOND_MS = 1000;
  private static final long MINUTE_MS = 60 * SECOND_MS;
  private static final long HOUR_MS = 60 * MINUTE_MS;
  private static final long DAY_MS = 24 * HOUR_MS;

  private final Type type;
  private final String group;
  private final String engineName;
  private final String storedName;
  private final QueueSettingField field;
  private final long min;
  private final long max;
  private final Object defaultValue;
  private final Function<QueueSettings, ?> getter;
  private final String description;

  QueueSetting(
      Type type,
      String group,
      String name,
      String storedName,
      QueueSettingField field,
      long min,
      long max,
      Object defaultValue,
      Function<QueueSettings, ?> getter,
      String description) {
    this.type = type;
    this.group = group;
    this.engineName = group == null ? name : group + "." + name;
    this.storedName = storedName;
    this.field = field;
    this.min = min;
    this.max = max;
    this.defaultValue = defaultValue;
    this.getter = getter;
    this.description = description;
  }

  /** The kind of value. */
  public Type type() {
    return type;
  }

  /**
   * The group the setting belongs to ({@code backoff}), or null for a setting of its own. A group
   * is one {@link Backoff} in Java and one JSON object in the HTTP API.
   */
  public String group() {
    return group;
  }

  /**
   * The name in the Java API, as {@link InvalidArgumentException#field()} gives it: {@code
   * rateLimit}, {@code timeToRun}, {@code backoff.initial}.
   */
  public String engineName() {
    return engineName;
  }

  /** The name of the queue's meta-hash field the Lua scripts read ({@code lib/settings.lua}). */
  String storedName() {
    return storedName;
  }

  /** The name in the HTTP API's JSON, within the group's object if it has a group. */
  public String jsonName() {
    return field.jsonName();
  }

  /** The setting's names in the HTTP API's JSON, as lineup-api defines them for every side. */
  public QueueSettingField field() {
    return field;
  }

  /** The JSON name with its group in front: {@code rate_limit}, {@code backoff.initial_ms}. */
  public String jsonPath() {
    return field.jsonPath();
  }

  /**
   * The lowest value allowed: a count for {@link Type#INTEGER}, milliseconds for {@link
   * Type#MILLIS}, 0 for {@link Type#FRACTION} and {@link Type#BOOLEAN}; unused for {@link
   * Type#CHOICE}.
   */
  public long min() {
    return min;
  }

  /**
   * The highest value allowed, in the units of {@link #min()}; 1 for {@link Type#FRACTION} and
   * {@link Type#BOOLEAN}.
   */
  public long max() {
    return max;
  }

  /** The values a {@link Type#CHOICE} takes, in lower case; empty for the other types. */
  public List<String> choices() {
    if (type != Type.CHOICE) {
      return List.of();
    }
    // The backoff's kind is the only choice so far.
    return Arrays.stream(Backoff.Kind.values())
        .map(kind -> kind.name().toLowerCase(Locale.ROOT))
        .toList();
  }

  /** The value of a queue nobody configured, in the form of its {@link Type}. */
  public Object defaultValue() {
    return defaultValue;
  }

  /** One line saying what the setting does. */
  public String description() {
    return description;
  }

  /**
   * The allowed values in words, as error messages and the docs give them: {@code 0 to 100000},
   * {@code 100 ms to 24 h}, {@code 0 to 1}, {@code fixed or exponential}, {@code true or false}.
   */
  public String rangeText() {
    return switch (type) {
      case BOOLEAN -> "true or false";
      case CHOICE -> String.join(" or ", choices());
      case MILLIS -> durationText(min) + " to " + durationText(max);
      case INTEGER, FRACTION -> min + " to " + max;
    };
  }

  /** The default in words, as the docs give it: {@code 30 s}, {@code 0.2}, {@code false}. */
  public String defaultText() {
    return type == Type.MILLIS ? durationText((Long) defaultValue) : defaultValue.toString();
  }

  /**
   * The setting's value in {@code settings}, in the form of its {@link Type}, or null when it is
   * not set there (a field left null in a change).
   */
  public Object valueIn(QueueSettings settings) {
    return jsonValue(getter.apply(settings));
  }

  /** The setting with this {@link #engineName()}, if there is one. */
  public static Optional<QueueSetting> byEngineName(String engineName) {
    return Arrays.stream(values()).filter(s -> s.engineName.equals(engineName)).findFirst();
  }

  /** A queue's settings when nobody configured it. */
  public static QueueSettings defaults() {
    Map<QueueSetting, Object> java = new EnumMap<>(QueueSetting.class);
    for (QueueSetting s : values()) {
      java.put(s, s.defaultJavaValue());
    }
    return build(java);
  }

  // ---- the engine's side: checks, Java values, the stored form ----

  /** The default as a Java value (as in {@link QueueSettings}). */
  Object defaultJavaValue() {
    return javaValue(defaultValue);
  }

  /** The Java value (as in {@link QueueSettings}) of this setting in {@code settings}, or null. */
  Object javaValueIn(QueueSettings settings) {
    return getter.apply(settings);
  }

  /**
   * Checks a Java value against the bounds.
   *
   * @throws InvalidArgumentException naming {@link #engineName()} when it is null or out of range
   */
  void check(Object javaValue) {
    if (javaValue == null) {
      throw new InvalidArgumentException(engineName, "is required");
    }
    boolean ok =
        switch (type) {
          case BOOLEAN, CHOICE -> true;
          case INTEGER -> {
            long value = ((Number) javaValue).longValue();
            yield value >= min && value <= max;
          }
          case MILLIS -> {
            // Compared as durations, so a huge one is refused rather than overflowing.
            Duration value = (Duration) javaValue;
            yield value.compareTo(Duration.ofMillis(min)) >= 0
                && value.compareTo(Duration.ofMillis(max)) <= 0;
          }
          case FRACTION -> {
            double value = ((Number) javaValue).doubleValue();
            yield value >= min && value <= max; // false for NaN
          }
        };
    if (!ok) {
      throw outOfRange(describeJava(javaValue));
    }
  }

  /**
   * The Java value for a value in the form of the {@link Type}, checked.
   *
   * @throws InvalidArgumentException naming {@link #engineName()} when the value is of another
   *     type, not one of the choices, or out of range
   */
  Object fromValue(Object value) {
    Object java =
        switch (type) {
          case BOOLEAN -> {
            if (!(value instanceof Boolean)) {
              throw outOfRange(describe(value));
            }
            yield value;
          }
          case INTEGER, MILLIS -> {
            if (!(value instanceof Long || value instanceof Integer)) {
              throw new InvalidArgumentException(
                  engineName,
                  "must be a whole number from " + rangeText() + ", got " + describe(value));
            }
            long number = ((Number) value).longValue();
            if (number < min || number > max) {
              // Checked here, before an int could overflow or a count become a duration.
              throw outOfRange(type == Type.MILLIS ? durationText(number) : describe(value));
            }
            yield type == Type.MILLIS
                ? Duration.ofMillis(number)
                : (Object) Math.toIntExact(number);
          }
          case FRACTION -> {
            if (!(value instanceof Number number)) {
              throw outOfRange(describe(value));
            }
            yield number.doubleValue();
          }
          case CHOICE -> choice(value);
        };
    check(java);
    return java;
  }

  /** The text the meta hash stores for a Java value. */
  String stored(Object javaValue) {
    Object value = jsonValue(javaValue);
    return switch (type) {
      case BOOLEAN -> (Boolean) value ? "1" : "0";
      case INTEGER, MILLIS, FRACTION, CHOICE -> value.toString();
    };
  }

  /** The Java value for the text the scripts return (a Lua number or string). */
  Object parseStored(String text) {
    return switch (type) {
      case BOOLEAN -> "1".equals(text);
      case INTEGER -> (int) Double.parseDouble(text);
      case MILLIS -> Duration.ofMillis((long) Double.parseDouble(text));
      case FRACTION -> Double.parseDouble(text);
      case CHOICE -> choice(text);
    };
  }

  /**
   * Settings from Java values by setting; absent settings are left null. A group is built when any
   * of its settings is given.
   *
   * @throws InvalidArgumentException when a group is given only in part
   */
  static QueueSettings build(Map<QueueSetting, Object> java) {
    Backoff backoff = null;
    if (java.containsKey(BACKOFF_KIND)
        || java.containsKey(BACKOFF_INITIAL)
        || java.containsKey(BACKOFF_MAX)
        || java.containsKey(BACKOFF_JITTER)) {
      Object jitter = java.get(BACKOFF_JITTER);
      if (jitter == null) {
        throw new InvalidArgumentException(BACKOFF_JITTER.engineName, "is required");
      }
      backoff =
          new Backoff(
              (Backoff.Kind) java.get(BACKOFF_KIND),
              (Duration) java.get(BACKOFF_INITIAL),
              (Duration) java.get(BACKOFF_MAX),
              (Double) jitter);
    }
    return QueueSettings.builder()
        .paused((Boolean) java.get(PAUSED))
        .rateLimit((Integer) java.get(RATE_LIMIT))
        .concurrencyLimit((Integer) java.get(CONCURRENCY_LIMIT))
        .maxAttempts((Integer) java.get(MAX_ATTEMPTS))
        .timeToRun((Duration) java.get(TIME_TO_RUN))
        .backoff(backoff)
        .retention((Duration) java.get(RETENTION))
        .retentionMax((Integer) java.get(RETENTION_MAX))
        .expectedServiceTime((Duration) java.get(EXPECTED_SERVICE_TIME))
        .ratePeriod((Duration) java.get(RATE_PERIOD))
        .rateBurst((Integer) java.get(RATE_BURST))
        .durableReplicas((Integer) java.get(DURABLE_REPLICAS))
        .fair((Boolean) java.get(FAIR))
        .keyConcurrency((Integer) java.get(KEY_CONCURRENCY))
        .keyRate((Integer) java.get(KEY_RATE))
        .keyRatePeriod((Duration) java.get(KEY_RATE_PERIOD))
        .keyMaxWaiting((Integer) java.get(KEY_MAX_WAITING))
        .build();
  }

  /**
   * A change from values in the form of their types (see {@link QueueSettings#change(Map,
   * Supplier)}).
   */
  static QueueSettings change(Map<QueueSetting, ?> values, Supplier<QueueSettings> current) {
    Map<QueueSetting, Object> java = new EnumMap<>(QueueSetting.class);
    values.forEach((setting, value) -> {
      if (value != null) {
        java.put(setting, setting.fromValue(value));
      }
    });
    QueueSettings now = null;
    for (QueueSetting s : values()) {
      if (s.group != null && !java.containsKey(s) && groupGiven(java, s.group)) {
        if (now == null && current != null) {
          now = current.get();
        }
        if (now == null || s.javaValueIn(now) == null) {
          throw new InvalidArgumentException(s.engineName, "is required");
        }
        java.put(s, s.javaValueIn(now));
      }
    }
    return build(java);
  }

  private static boolean groupGiven(Map<QueueSetting, Object> java, String group) {
    return java.keySet().stream().anyMatch(s -> group.equals(s.group));
  }

  private Object javaValue(Object value) {
    return switch (type) {
      case BOOLEAN, FRACTION -> value;
      case INTEGER -> Math.toIntExact((Long) value);
      case MILLIS -> Duration.ofMillis((Long) value);
      case CHOICE -> choice(value);
    };
  }

  private Object jsonValue(Object javaValue) {
    if (javaValue == null) {
      return null;
    }
    return switch (type) {
      case BOOLEAN -> javaValue;
      case INTEGER -> ((Number) javaValue).longValue();
      case MILLIS -> ((Duration) javaValue).toMillis();
      case FRACTION -> ((Number) javaValue).doubleValue();
      case CHOICE -> ((Enum<?>) javaValue).name().toLowerCase(Locale.ROOT);
    };
  }

  private Backoff.Kind choice(Object value) {
    if (value instanceof String text) {
      for (Backoff.Kind kind : Backoff.Kind.values()) {
        if (kind.name().equalsIgnoreCase(text)) {
          return kind;
        }
      }
    }
    throw outOfRange(describe(value));
  }

  private InvalidArgumentException outOfRange(String got) {
    String allowed =
        switch (type) {
          case BOOLEAN, CHOICE -> rangeText();
          case INTEGER, MILLIS, FRACTION -> "from " + rangeText();
        };
    return new InvalidArgumentException(engineName, "must be " + allowed + ", got " + got);
  }

  private String describeJava(Object javaValue) {
    if (javaValue instanceof Duration duration) {
      return duration.abs().compareTo(Duration.ofDays(100_000)) > 0
          ? duration.getSeconds() + " s"
          : durationText(duration.toMillis());
    }
    return describe(javaValue);
  }

  private static String describe(Object value) {
    if (value == null) {
      return "nothing";
    }
    String text = value instanceof String s ? "\"" + s + "\"" : value.toString();
    return text.length() <= 40 ? text : text.substring(0, 37) + "...";
  }

  /**
   * Milliseconds in the largest unit that divides them: {@code 100 ms}, {@code 30 s}, {@code 5
   * min}, {@code 24 h}, {@code 30 days}; days only from two days on, since 24 h reads better.
   */
  static String durationText(long ms) {
    if (ms == 0) {
      return "0";
    }
    if (ms % DAY_MS == 0 && Math.abs(ms) >= 2 * DAY_MS) {
      return ms / DAY_MS + " days";
    }
    if (ms % HOUR_MS == 0) {
      return ms / HOUR_MS + " h";
    }
    if (ms % MINUTE_MS == 0) {
      return ms / MINUTE_MS + " min";
    }
    if (ms % SECOND_MS == 0) {
      return ms / SECOND_MS + " s";
    }
    return ms + " ms";
  }
}
