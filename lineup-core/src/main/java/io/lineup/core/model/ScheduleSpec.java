package io.lineup.core.model;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinition;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a recurring schedule is: its name, when it ticks (a cron expression in a time zone, or a
 * fixed interval) and the job each tick publishes. Immutable; made with {@link #cron(String,
 * String, ZoneId)} or {@link #every(String, Duration)} and changed with {@link #toBuilder()}.
 *
 * <p>Cron expressions have six fields, Spring 5.3's dialect as <a
 * href="https://github.com/jmrozanec/cron-utils">cron-utils</a> reads it: {@code seconds minutes
 * hours day-of-month month day-of-week}, e.g. {@code 0 0 2 * * *} for 02:00:00 every day; {@code *
 * , - /} and {@code ?}, month and weekday names ({@code JAN}, {@code MON}), {@code L}, {@code W}
 * and {@code #}. They are evaluated in {@link #zone()} (UTC when not given), daylight saving
 * included (see docs/schedules.md).
 *
 * <p>Ticks are at millisecond precision. No tick is before {@link #startAt()} or after {@link
 * #endAt()}; after {@link #maxRuns()} published jobs the schedule ends.
 *
 * @param name 1 to {@value #MAX_NAME_LENGTH} characters from {@code A-Z a-z 0-9 . _ - :}, unique in
 *     its queue
 * @param cron the six-field cron expression, or null for an interval schedule
 * @param zone the zone the cron expression is read in (UTC by default); null for an interval
 *     schedule
 * @param every the interval between ticks ({@value #MIN_EVERY_MS} ms to 10 years), or null for a
 *     cron schedule; the first tick is at {@link #startAt()}, or when the schedule was first
 *     upserted
 * @param payload the bytes of every tick's job (a copy is kept; the accessor returns a copy)
 * @param priority the jobs' priority ({@value Limits#MIN_PRIORITY} to {@value Limits#MAX_PRIORITY})
 * @param key the fairness key of every tick's job ({@link NewJob#key}; {@link FairnessKey} states
 *     the characters), or null for none
 * @param ttl the jobs' time to live, or null for none
 * @param maxAttempts the jobs' deliveries before dead letters, or null for the queue's setting
 * @param timeToRun the jobs' lease length, or null for the queue's setting
 * @param startAt no tick before this instant, or null
 * @param endAt no tick after this instant, or null
 * @param maxRuns the schedule ends after this many published jobs, or null for no end
 * @param jitter each job is due a random 0 to {@code jitter} after its tick, the same for every
 *     attempt at that tick (derived from the name and the tick); zero by default, at most {@value
 *     #MAX_JITTER_MS} ms
 * @param paused whether the schedule is paused (no jobs until resumed)
 * @param missed what to do with missed ticks ({@link MissedTicks#SKIP} by default)
 * @param catchUpMax the most jobs {@link MissedTicks#CATCH_UP} publishes for missed ticks (1 to
 *     {@value #MAX_CATCH_UP}, default {@value #DEFAULT_CATCH_UP})
 * @param historySize how many {@link ScheduleRun}s are kept (0 to {@value #MAX_HISTORY}, default
 *     {@value #DEFAULT_HISTORY})
 */
public record ScheduleSpec(
    String name,
    String cron,
    ZoneId zone,
    Duration every,
    byte[] payload,
    int priority,
    String key,
    Duration ttl,
    Integer maxAttempts,
    Duration timeToRun,
    Instant startAt,
    Instant endAt,
    Long maxRuns,
    Duration jitter,
    boolean paused,
    MissedTicks missed,
    int catchUpMax,
    int historySize) {

  /** Longest schedule name, in characters. */
  public static final int MAX_NAME_LENGTH = 128;

  /** Shortest interval, in milliseconds. */
  public static final long MIN_EVERY_MS = 10;

  /** Longest jitter, in milliseconds (one day). */
  public static final long MAX_JITTER_MS = 24L * 3600 * 1000;

  /** Default of {@link #catchUpMax()}. */
  public static final int DEFAULT_CATCH_UP = 100;

  /** Largest {@link #catchUpMax()}. */
  public static final int MAX_CATCH_UP = 1000;

  /** Default of {@link #historySize()}. */
  public static final int DEFAULT_HISTORY = 20;

  /** Largest {@link #historySize()}. */
  public static final int MAX_HISTORY = 1000;

  /** Longest key, in bytes of UTF-8. */
  public static final int MAX_KEY_BYTES = FairnessKey.MAX_LENGTH;

  /**
   * How far behind the engine's clock a due tick must be to count as missed (its schedule's {@link
   * MissedTicks} policy then applies): 1 second. A tick fired less late is published as usual.
   */
  public static final Duration MISSED_AFTER = Duration.ofSeconds(1);

  /** The six cron fields, in order, as error messages name them. */
  public static final List<String> CRON_FIELDS =
      List.of("seconds", "minutes", "hours", "day-of-month", "month", "day-of-week");

  private static final CronDefinition DEFINITION =
      CronDefinitionBuilder.instanceDefinitionFor(CronType.SPRING53);
  private static final CronParser PARSER = new CronParser(DEFINITION);
  private static final String[] NEUTRAL = {"0", "0", "0", "*", "*", "?"};

  /**
   * Checks every field.
   *
   * @throws InvalidArgumentException naming the first field that is wrong; a bad cron expression
   *     names the cron field that is wrong ({@code cron: field 'minutes' (61) ...})
   */
  public ScheduleSpec {
    checkName(name);
    if ((cron == null) == (every == null)) {
      throw new InvalidArgumentException("cron", "give exactly one of cron and every");
    }
    if (cron != null) {
      parse(cron);
      if (zone == null) {
        zone = ZoneOffset.UTC;
      }
    } else {
      if (zone != null) {
        throw new InvalidArgumentException("zone", "only a cron schedule has a zone");
      }
      range("every", every, MIN_EVERY_MS, Limits.MAX_DELAY_MS);
    }
    payload = Objects.requireNonNull(payload, "payload").clone();
    if (priority < Limits.MIN_PRIORITY || priority > Limits.MAX_PRIORITY) {
      throw new InvalidArgumentException(
          "priority",
          "must be between "
              + Limits.MIN_PRIORITY
              + " and "
              + Limits.MAX_PRIORITY
              + ", got "
              + priority);
    }
    if (key != null) {
      FairnessKey.check("key", key);
    }
    if (ttl != null) {
      range("ttl", ttl, 1, Limits.MAX_TTL_MS);
    }
    if (maxAttempts != null && (maxAttempts < 1 || maxAttempts > Limits.MAX_ATTEMPTS)) {
      throw new InvalidArgumentException(
          "maxAttempts", "must be between 1 and " + Limits.MAX_ATTEMPTS + ", got " + maxAttempts);
    }
    if (timeToRun != null) {
      range("timeToRun", timeToRun, Limits.MIN_TTR_MS, Limits.MAX_TTR_MS);
    }
    if (startAt != null && endAt != null && endAt.isBefore(startAt)) {
      throw new InvalidArgumentException("endAt", "must not be before startAt");
    }
    if (maxRuns != null && maxRuns < 1) {
      throw new InvalidArgumentException("maxRuns", "must be 1 or more, got " + maxRuns);
    }
    jitter = jitter == null ? Duration.ZERO : jitter;
    range("jitter", jitter, 0, MAX_JITTER_MS);
    missed = missed == null ? MissedTicks.SKIP : missed;
    if (catchUpMax < 1 || catchUpMax > MAX_CATCH_UP) {
      throw new InvalidArgumentException(
          "catchUpMax", "must be between 1 and " + MAX_CATCH_UP + ", got " + catchUpMax);
    }
    if (historySize < 0 || historySize > MAX_HISTORY) {
      throw new InvalidArgumentException(
          "historySize", "must be between 0 and " + MAX_HISTORY + ", got " + historySize);
    }
  }

  /**
   * A cron schedule's builder.
   *
   * @param name the schedule's name
   * @param expression six fields: seconds minutes hours day-of-month month day-of-week
   * @param zone the zone the expression is read in
   */
  public static Builder cron(String name, String expression, ZoneId zone) {
    return new Builder(name).cron(expression, zone);
  }

  /**
   * An interval schedule's builder.
   *
   * @param name the schedule's name
   * @param interval the time between ticks, {@value #MIN_EVERY_MS} ms or more
   */
  public static Builder every(String name, Duration interval) {
    return new Builder(name).every(interval);
  }

  /** A builder holding this spec's values. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** This spec, paused or not. */
  public ScheduleSpec withPaused(boolean paused) {
    return toBuilder().paused(paused).build();
  }

  /** A copy of the jobs' payload. */
  @Override
  public byte[] payload() {
    return payload.clone();
  }

  /** The payload as UTF-8 text. */
  public String payloadText() {
    return new String(payload, StandardCharsets.UTF_8);
  }

  /** Whether this is a cron schedule (else an interval one). */
  public boolean isCron() {
    return cron != null;
  }

  /**
   * The first tick at or after {@code from}, within {@link #startAt()} and {@link #endAt()}; empty
   * when there is none (past the end time, or a cron expression that never matches again). The run
   * limit ({@link #maxRuns()}) is not applied here.
   *
   * @param from the earliest instant the tick may have (millisecond precision)
   * @param anchor for an interval schedule without {@link #startAt()}, the instant its ticks count
   *     from ({@code anchor + k * every}); ignored otherwise
   */
  public Optional<Instant> tickAtOrAfter(Instant from, Instant anchor) {
    Instant earliest = startAt != null && startAt.isAfter(from) ? startAt : from;
    earliest = Instant.ofEpochMilli(ceilMillis(earliest));
    Instant tick;
    if (cron != null) {
      // Cron ticks are whole seconds: the first at or after the earliest whole second from then.
      Instant second = earliest.truncatedTo(ChronoUnit.SECONDS);
      if (second.isBefore(earliest)) {
        second = second.plusSeconds(1);
      }
      ZonedDateTime before = second.minusSeconds(1).atZone(zone);
      Optional<ZonedDateTime> next = executionTime(cron).nextExecution(before);
      if (next.isEmpty()) {
        return Optional.empty();
      }
      tick = next.get().toInstant().truncatedTo(ChronoUnit.SECONDS);
    } else {
      long base =
          (startAt != null ? startAt : Objects.requireNonNull(anchor, "anchor")).toEpochMilli();
      long step = every.toMillis();
      long at = earliest.toEpochMilli();
      long k = at <= base ? 0 : Math.floorDiv(at - base + step - 1, step);
      tick = Instant.ofEpochMilli(base + k * step);
    }
    if (endAt != null && tick.isAfter(endAt)) {
      return Optional.empty();
    }
    return Optional.of(tick);
  }

  /**
   * The last tick at or before {@code at}, within {@link #startAt()} and {@link #endAt()}; empty
   * when there is none. The run limit ({@link #maxRuns()}) is not applied here.
   *
   * @param at the latest instant the tick may have (millisecond precision)
   * @param anchor for an interval schedule without {@link #startAt()}, the instant its ticks count
   *     from; ignored otherwise
   */
  public Optional<Instant> tickAtOrBefore(Instant at, Instant anchor) {
    Instant latest = endAt != null && endAt.isBefore(at) ? endAt : at;
    latest = Instant.ofEpochMilli(latest.toEpochMilli());
    Instant tick;
    if (cron != null) {
      // Cron ticks are whole seconds: the last before the whole second after the latest one.
      ZonedDateTime after = latest.truncatedTo(ChronoUnit.SECONDS).plusSeconds(1).atZone(zone);
      Optional<ZonedDateTime> last = executionTime(cron).lastExecution(after);
      if (last.isEmpty()) {
        return Optional.empty();
      }
      tick = last.get().toInstant().truncatedTo(ChronoUnit.SECONDS);
    } else {
      long base =
          (startAt != null ? startAt : Objects.requireNonNull(anchor, "anchor")).toEpochMilli();
      long at0 = latest.toEpochMilli();
      if (at0 < base) {
        return Optional.empty();
      }
      long step = every.toMillis();
      tick = Instant.ofEpochMilli(base + Math.floorDiv(at0 - base, step) * step);
    }
    if (startAt != null && tick.isBefore(startAt)) {
      return Optional.empty();
    }
    return Optional.of(tick);
  }

  /**
   * The next {@code n} ticks at or after {@code from} (fewer when the schedule ends sooner); an
   * interval schedule without {@link #startAt()} counts from {@code from}. Pure: reads no clock and
   * no Redis. The run limit is not applied.
   *
   * @throws InvalidArgumentException when n is outside 1..{@value Limits#MAX_BATCH}
   */
  public List<Instant> nextTicks(Instant from, int n) {
    return nextTicks(from, from, n);
  }

  /**
   * As {@link #nextTicks(Instant, int)}, an interval schedule counting from {@code anchor}.
   *
   * @throws InvalidArgumentException when n is outside 1..{@value Limits#MAX_BATCH}
   */
  public List<Instant> nextTicks(Instant from, Instant anchor, int n) {
    if (n < 1 || n > Limits.MAX_BATCH) {
      throw new InvalidArgumentException(
          "n", "must be between 1 and " + Limits.MAX_BATCH + ", got " + n);
    }
    List<Instant> ticks = new ArrayList<>(n);
    Instant cursor = from;
    while (ticks.size() < n) {
      Optional<Instant> tick = tickAtOrAfter(cursor, anchor);
      if (tick.isEmpty()) {
        break;
      }
      ticks.add(tick.get());
      cursor = tick.get().plusMillis(1);
    }
    return List.copyOf(ticks);
  }

  /**
   * The delay of the job of {@code tick} after the tick: 0 to {@link #jitter()}, derived from the
   * name and the tick alone, so every engine and every retry picks the same.
   */
  public Duration jitterAt(Instant tick) {
    long bound = jitter.toMillis();
    if (bound == 0) {
      return Duration.ZERO;
    }
    long h = name.hashCode() * 0x9E3779B97F4A7C15L ^ tick.toEpochMilli();
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return Duration.ofMillis(Math.floorMod(h, bound + 1));
  }

  /** Parsed expressions by their text, so that a schedule's expression is parsed once. */
  private static final Map<String, ExecutionTime> EXECUTION_TIMES = new ConcurrentHashMap<>();

  private static final int EXECUTION_TIMES_KEPT = 10_000;

  private static ExecutionTime executionTime(String expression) {
    ExecutionTime known = EXECUTION_TIMES.get(expression);
    if (known != null) {
      return known;
    }
    ExecutionTime parsed = ExecutionTime.forCron(parse(expression));
    if (EXECUTION_TIMES.size() < EXECUTION_TIMES_KEPT) {
      EXECUTION_TIMES.put(expression, parsed);
    }
    return parsed;
  }

  private static long ceilMillis(Instant instant) {
    long ms = instant.toEpochMilli();
    return instant.getNano() % 1_000_000 == 0 ? ms : ms + 1;
  }

  private static void checkName(String name) {
    if (name == null || name.isEmpty() || name.length() > MAX_NAME_LENGTH) {
      throw new InvalidArgumentException(
          "name", "must be 1 to " + MAX_NAME_LENGTH + " characters from A-Z a-z 0-9 . _ - :");
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '.'
              || c == '_'
              || c == '-'
              || c == ':';
      if (!ok) {
        throw new InvalidArgumentException(
            "name", "may only contain A-Z a-z 0-9 . _ - : but was '" + name + "'");
      }
    }
  }

  private static void range(String field, Duration value, long minMs, long maxMs) {
    if (value.compareTo(Duration.ofMillis(minMs)) < 0
        || value.compareTo(Duration.ofMillis(maxMs)) > 0) {
      throw new InvalidArgumentException(
          field, "must be between " + minMs + " ms and " + maxMs + " ms");
    }
  }

  /**
   * Parses a six-field expression; on failure names the field that is wrong, found by putting each
   * field alone into an expression that is otherwise valid.
   */
  private static Cron parse(String expression) {
    String[] parts = expression.trim().split("\\s+");
    if (expression.isBlank() || parts.length != CRON_FIELDS.size()) {
      throw new InvalidArgumentException(
          "cron",
          "expected 6 fields ("
              + String.join(" ", CRON_FIELDS)
              + "), got "
              + (expression.isBlank() ? 0 : parts.length)
              + " in '"
              + expression
              + "'");
    }
    try {
      Cron cron = PARSER.parse(String.join(" ", parts));
      cron.validate();
      return cron;
    } catch (IllegalArgumentException | DateTimeException whole) {
      for (int i = 0; i < parts.length; i++) {
        String[] probe = NEUTRAL.clone();
        probe[i] = parts[i];
        if (i == 5 && !"?".equals(parts[5])) {
          probe[3] = "?";
        }
        try {
          PARSER.parse(String.join(" ", probe)).validate();
        } catch (IllegalArgumentException | DateTimeException part) {
          throw new InvalidArgumentException(
              "cron",
              "field '"
                  + CRON_FIELDS.get(i)
                  + "' ("
                  + parts[i]
                  + ") of '"
                  + expression
                  + "' is invalid: "
                  + part.getMessage());
        }
      }
      throw new InvalidArgumentException(
          "cron", "'" + expression + "' is invalid: " + whole.getMessage());
    }
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ScheduleSpec that
        && name.equals(that.name)
        && Objects.equals(cron, that.cron)
        && Objects.equals(zone, that.zone)
        && Objects.equals(every, that.every)
        && Arrays.equals(payload, that.payload)
        && priority == that.priority
        && Objects.equals(key, that.key)
        && Objects.equals(ttl, that.ttl)
        && Objects.equals(maxAttempts, that.maxAttempts)
        && Objects.equals(timeToRun, that.timeToRun)
        && Objects.equals(startAt, that.startAt)
        && Objects.equals(endAt, that.endAt)
        && Objects.equals(maxRuns, that.maxRuns)
        && jitter.equals(that.jitter)
        && paused == that.paused
        && missed == that.missed
        && catchUpMax == that.catchUpMax
        && historySize == that.historySize;
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, cron, zone, every, Arrays.hashCode(payload), priority, startAt);
  }

  @Override
  public String toString() {
    return "ScheduleSpec["
        + name
        + (cron != null ? ", cron=" + cron + " " + zone : ", every=" + every)
        + ", payload="
        + payload.length
        + " bytes"
        + (paused ? ", paused" : "")
        + ", missed="
        + missed
        + "]";
  }

  /** Builds a {@link ScheduleSpec}; every value is checked by {@link #build()}. */
  public static final class Builder {
    private final String name;
    private String cron;
    private ZoneId zone;
    private Duration every;
    private byte[] payload = new byte[0];
    private int priority;
    private String key;
    private Duration ttl;
    private Integer maxAttempts;
    private Duration timeToRun;
    private Instant startAt;
    private Instant endAt;
    private Long maxRuns;
    private Duration jitter = Duration.ZERO;
    private boolean paused;
    private MissedTicks missed = MissedTicks.SKIP;
    private int catchUpMax = DEFAULT_CATCH_UP;
    private int historySize = DEFAULT_HISTORY;

    private Builder(String name) {
      this.name = name;
    }

    private Builder(ScheduleSpec spec) {
      this.name = spec.name;
      this.cron = spec.cron;
      this.zone = spec.zone;
      this.every = spec.every;
      this.payload = spec.payload;
      this.priority = spec.priority;
      this.key = spec.key;
      this.ttl = spec.ttl;
      this.maxAttempts = spec.maxAttempts;
      this.timeToRun = spec.timeToRun;
      this.startAt = spec.startAt;
      this.endAt = spec.endAt;
      this.maxRuns = spec.maxRuns;
      this.jitter = spec.jitter;
      this.paused = spec.paused;
      this.missed = spec.missed;
      this.catchUpMax = spec.catchUpMax;
      this.historySize = spec.historySize;
    }

    /**
     * Ticks by a six-field cron expression read in {@code zone} (null = UTC); drops the interval.
     */
    public Builder cron(String expression, ZoneId zone) {
      this.cron = expression;
      this.zone = zone;
      this.every = null;
      return this;
    }

    /** Ticks every {@code interval}; drops the cron expression. */
    public Builder every(Duration interval) {
      this.every = interval;
      this.cron = null;
      this.zone = null;
      return this;
    }

    /** {@link #every(Duration)} in milliseconds. */
    public Builder everyMs(long intervalMs) {
      return every(Duration.ofMillis(intervalMs));
    }

    /** The jobs' payload (copied). */
    public Builder payload(byte[] payload) {
      this.payload = payload;
      return this;
    }

    /** The jobs' payload as UTF-8 text. */
    public Builder payloadText(String payload) {
      this.payload = payload.getBytes(StandardCharsets.UTF_8);
      return this;
    }

    /** The jobs' priority. */
    public Builder priority(int priority) {
      this.priority = priority;
      return this;
    }

    /** The fairness key of every tick's job ({@link NewJob#key}), or null for none. */
    public Builder key(String key) {
      this.key = key;
      return this;
    }

    /** The jobs' time to live (null = none). */
    public Builder ttl(Duration ttl) {
      this.ttl = ttl;
      return this;
    }

    /** The jobs' most deliveries (null = the queue's). */
    public Builder maxAttempts(Integer maxAttempts) {
      this.maxAttempts = maxAttempts;
      return this;
    }

    /** The jobs' lease length (null = the queue's). */
    public Builder timeToRun(Duration timeToRun) {
      this.timeToRun = timeToRun;
      return this;
    }

    /** No tick before this instant (null = none). */
    public Builder startAt(Instant startAt) {
      this.startAt = startAt;
      return this;
    }

    /** No tick after this instant (null = none). */
    public Builder endAt(Instant endAt) {
      this.endAt = endAt;
      return this;
    }

    /** End after this many published jobs (null = never). */
    public Builder maxRuns(Long maxRuns) {
      this.maxRuns = maxRuns;
      return this;
    }

    /** Each job due a random 0 to {@code jitter} after its tick. */
    public Builder jitter(Duration jitter) {
      this.jitter = jitter;
      return this;
    }

    /** Paused or not. */
    public Builder paused(boolean paused) {
      this.paused = paused;
      return this;
    }

    /** The missed-ticks policy. */
    public Builder missed(MissedTicks missed) {
      this.missed = missed;
      return this;
    }

    /** The most jobs {@link MissedTicks#CATCH_UP} publishes for missed ticks. */
    public Builder catchUpMax(int catchUpMax) {
      this.catchUpMax = catchUpMax;
      return this;
    }

    /** How many runs the history keeps. */
    public Builder historySize(int historySize) {
      this.historySize = historySize;
      return this;
    }

    /**
     * The spec.
     *
     * @throws InvalidArgumentException naming the first field that is wrong
     */
    public ScheduleSpec build() {
      return new ScheduleSpec(
          name,
          cron,
          zone,
          every,
          payload,
          priority,
          key,
          ttl,
          maxAttempts,
          timeToRun,
          startAt,
          endAt,
          maxRuns,
          jitter,
          paused,
          missed,
          catchUpMax,
          historySize);
    }
  }
}
