package io.lineup.core.model;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Estimates how fast a line is served and how long a waiting job will wait, from the completions of
 * its recent seconds and its limits. The engine's queues use it for {@link JobInfo#eta()} and
 * {@link QueueStats}; any other line with a count of completions per second (the dispatch
 * endpoints, the waiting room) can use it the same way. docs/eta.md gives the formula.
 *
 * <p>In short: the rate is the mean of the complete seconds since service started, or since the
 * rate last changed; it is capped by the rate limit, and by the concurrency limit when more jobs
 * are leased than it allows now. A job at position {@code p} waits {@code (p + 1) / rate}; when the
 * line is served at its rate limit, the limit's window says when each slot frees, and the wait
 * follows that schedule instead. The band comes from the spread of the per-second counts. A paused
 * line, or one that served nothing recently and has no expected service time, has no estimate.
 *
 * <p>Instances are immutable and cheap: make one per reading and ask it for as many positions as
 * needed.
 */
public final class EtaEstimator {
  /** Seconds of completions the engine keeps per queue and hands in: the last minute. */
  public static final int WINDOW_SECONDS = 60;

  /** Complete seconds a new rate must have lasted before the estimate switches to it. */
  public static final int MIN_RECENT_SECONDS = 3;

  /**
   * Smallest change of the typical per-second count, as a share of the larger one, taken for a
   * change of rate rather than noise.
   */
  public static final double MIN_CHANGE = 0.10;

  /**
   * How many standard errors the typical counts before and after a change must differ by, beyond
   * {@link #MIN_CHANGE}, for the change to be believed.
   */
  public static final double CHANGE_Z = 3.0;

  /** Standard deviations of the served count the band spans on each side of the point. */
  public static final double BAND_Z = 2.0;

  /**
   * Added on each side of the band: the counts are per second, so they cannot place a moment of
   * service more precisely than within a second (a rate limit, for one, serves in bursts).
   */
  public static final Duration GRANULARITY = Duration.ofSeconds(1);

  /** Band of an estimate from the expected service time alone: this many times faster or slower. */
  public static final double EXPECTED_SPREAD = 2.0;

  /** The slow end of a band never assumes a rate below the measured one divided by this. */
  public static final double SLOWEST_FACTOR = 4.0;

  /**
   * A line is served at its rate limit when its measured rate and its leases of the last second
   * both reach this share of the limit: its waits then follow the limit's schedule.
   */
  public static final double AT_LIMIT = 0.9;

  /** Consistency constant of a median absolute deviation for normally spread counts. */
  private static final double MAD_TO_SD = 1.4826;

  /** Standard error of a median over that of a mean, for normally spread counts. */
  private static final double MEDIAN_SE = 1.2533;

  /** Where an estimate comes from. */
  public enum Basis {
    /** Completions counted in the recent seconds. */
    MEASURED,
    /** The queue's expected service time; nothing was served recently. */
    EXPECTED,
    /** No estimate: the line is paused, or nothing was served recently and no time is expected. */
    NONE
  }

  /**
   * The rate limit's window at the moment of reading: the leases of the last second, which free
   * their slots one second after they were made.
   *
   * @param leases leases made in the last second
   * @param oldestAgoMs how long before the reading the oldest of them was made, in ms (0 to 1000)
   * @param newestAgoMs how long before the reading the newest of them was made, in ms (0 to {@code
   *     oldestAgoMs})
   */
  public record RateWindow(long leases, long oldestAgoMs, long newestAgoMs) {
    /** No lease in the last second, or no rate limit. */
    public static final RateWindow EMPTY = new RateWindow(0, 0, 0);

    /**
     * Checks the values.
     *
     * @throws IllegalArgumentException when a value is negative or the newest is older than the
     *     oldest
     */
    public RateWindow {
      if (leases < 0 || newestAgoMs < 0 || oldestAgoMs < newestAgoMs) {
        throw new IllegalArgumentException(
            "A rate window needs leases >= 0 and 0 <= newestAgoMs <= oldestAgoMs, got "
                + leases
                + ", "
                + oldestAgoMs
                + ", "
                + newestAgoMs);
      }
    }
  }

  /**
   * What a line's service is bounded by at the moment of reading.
   *
   * @param paused whether the line is paused (then nothing is served and there is no estimate)
   * @param rateLimit most jobs served per sliding second, 0 = no limit
   * @param concurrencyLimit most jobs in service at once, 0 = no limit
   * @param expectedServiceTime how long one job takes from lease to ack, used when nothing was
   *     served recently; zero = none
   * @param leased jobs in service (leased) now
   * @param rateWindow the rate limit's window over the last second ({@link RateWindow#EMPTY}
   *     without a limit)
   * @param ratePeriod the period of the rate limit: at most {@code rateLimit} per sliding period
   * @param rateBurst 0, or at most this many leases at once and then evenly spaced
   */
  public record Conditions(
      boolean paused,
      int rateLimit,
      int concurrencyLimit,
      Duration expectedServiceTime,
      long leased,
      RateWindow rateWindow,
      Duration ratePeriod,
      int rateBurst) {
    /**
     * Checks the values.
     *
     * @throws NullPointerException when {@code expectedServiceTime} or {@code rateWindow} is null
     * @throws IllegalArgumentException when a limit, the expected time or {@code leased} is
     *     negative
     */
    public Conditions {
      Objects.requireNonNull(expectedServiceTime, "expectedServiceTime");
      Objects.requireNonNull(rateWindow, "rateWindow");
      Objects.requireNonNull(ratePeriod, "ratePeriod");
      if (rateLimit < 0
          || concurrencyLimit < 0
          || leased < 0
          || rateBurst < 0
          || expectedServiceTime.isNegative()
          || ratePeriod.isNegative()
          || ratePeriod.isZero()) {
        throw new IllegalArgumentException(
            "Limits, the expected service time and the leased count must not be negative, and"
                + " the rate period must be positive");
      }
    }

    /** Conditions whose rate limit counts per sliding second, without a burst. */
    public Conditions(
        boolean paused,
        int rateLimit,
        int concurrencyLimit,
        Duration expectedServiceTime,
        long leased,
        RateWindow rateWindow) {
      this(
          paused,
          rateLimit,
          concurrencyLimit,
          expectedServiceTime,
          leased,
          rateWindow,
          Duration.ofSeconds(1),
          0);
    }

    /** The rate limit as jobs per second; infinity without a limit. */
    double ratePerSecond() {
      return rateLimit > 0 ? rateLimit * 1000.0 / ratePeriod.toMillis() : Double.POSITIVE_INFINITY;
    }

    /**
     * Whether the limiter's own schedule can be followed: a limit per second without a burst, whose
     * window is the one the scripts report.
     */
    boolean schedulable() {
      return rateLimit > 0 && rateBurst == 0 && ratePeriod.toMillis() == 1000;
    }

    /**
     * The conditions of a queue with these effective settings (as {@link
     * io.lineup.core.Lineup#stats} gives them), this many jobs leased and this rate window.
     *
     * @throws NullPointerException when a setting the estimate uses, or the window, is null
     */
    public static Conditions of(QueueSettings settings, long leased, RateWindow rateWindow) {
      return new Conditions(
          settings.paused(),
          settings.rateLimit(),
          settings.concurrencyLimit(),
          settings.expectedServiceTime(),
          leased,
          rateWindow,
          settings.ratePeriod(),
          settings.rateBurst());
    }
  }

  private static final EtaEstimator NONE =
      new EtaEstimator(Basis.NONE, 0, 0, 0, 0, Double.POSITIVE_INFINITY, 0, null);

  private final Basis basis;
  private final double rate;
  private final double uncapped;
  private final double spread;
  private final int seconds;
  private final double cap;
  private final int rateLimit;

  /** The rate limit's window when the line is served at its limit, else null. */
  private final RateWindow atLimit;

  private EtaEstimator(
      Basis basis,
      double rate,
      double uncapped,
      double spread,
      int seconds,
      double cap,
      int rateLimit,
      RateWindow atLimit) {
    this.basis = basis;
    this.rate = rate;
    this.uncapped = uncapped;
    this.spread = spread;
    this.seconds = seconds;
    this.cap = cap;
    this.rateLimit = rateLimit;
    this.atLimit = atLimit;
  }

  /**
   * The estimate for a line.
   *
   * @param completionsPerSecond jobs served (acked or nacked) in each of the last seconds, oldest
   *     first; the last is the second the reading falls in, still running. The engine hands in
   *     {@link #WINDOW_SECONDS}, less the empty seconds before the first completion.
   * @param conditions the line's limits and state at the moment of reading
   * @return the estimate; its {@link #basis()} is {@link Basis#NONE} when there is none
   * @throws NullPointerException when an argument or a count is null
   * @throws IllegalArgumentException when a count is negative
   */
  public static EtaEstimator of(List<Long> completionsPerSecond, Conditions conditions) {
    Objects.requireNonNull(conditions, "conditions");
    double[] counts = new double[completionsPerSecond.size()];
    for (int i = 0; i < counts.length; i++) {
      long count = completionsPerSecond.get(i);
      if (count < 0) {
        throw new IllegalArgumentException("A count of completions is negative: " + count);
      }
      counts[i] = count;
    }
    if (conditions.paused()) {
      return NONE;
    }
    double cap = conditions.ratePerSecond();
    double[] samples = samples(counts);
    if (samples.length > 0) {
      double[] recent = Arrays.copyOfRange(samples, changeStart(samples), samples.length);
      double mean = mean(recent);
      if (mean > 0) {
        // Little's law: the measured service time is leased / rate, so a concurrency limit below
        // the jobs leased now (it was just lowered) allows rate * limit / leased.
        if (conditions.concurrencyLimit() > 0
            && conditions.leased() > conditions.concurrencyLimit()) {
          cap = Math.min(cap, mean * conditions.concurrencyLimit() / conditions.leased());
        }
        double spread = recent.length > 1 ? sd(recent, mean) : Math.sqrt(mean);
        double rate = Math.min(mean, cap);
        int limit = conditions.rateLimit();
        RateWindow window = conditions.rateWindow();
        boolean atLimit =
            conditions.schedulable()
                && rate >= AT_LIMIT * limit
                && window.leases() >= AT_LIMIT * limit;
        return new EtaEstimator(
            Basis.MEASURED, rate, mean, spread, recent.length, cap, limit, atLimit ? window : null);
      }
    }
    Duration expected = conditions.expectedServiceTime();
    if (!expected.isZero()) {
      double parallel =
          conditions.concurrencyLimit() > 0
              ? conditions.concurrencyLimit()
              : Math.max(1, conditions.leased());
      double perSecond = parallel / (expected.getSeconds() + expected.getNano() / 1e9);
      return new EtaEstimator(
          Basis.EXPECTED, Math.min(perSecond, cap), perSecond, 0, 0, cap, 0, null);
    }
    return NONE;
  }

  /** Where this estimate comes from. */
  public Basis basis() {
    return basis;
  }

  /** The estimated service rate in jobs per second, limits applied; 0 when there is no estimate. */
  public double ratePerSecond() {
    return rate;
  }

  /** Whether the line is served at its rate limit, so that waits follow the limit's schedule. */
  public boolean atRateLimit() {
    return atLimit != null;
  }

  /**
   * The complete seconds the measured rate is the mean of (since service started or the rate last
   * changed, within the window); 0 unless the basis is {@link Basis#MEASURED}.
   */
  public int secondsMeasured() {
    return seconds;
  }

  /**
   * The estimated wait of the job at {@code position} until it is served (leased).
   *
   * @param position place in the line, 0 = next
   * @return the wait with its band, or empty when there is no estimate
   * @throws IllegalArgumentException when {@code position} is negative
   */
  public Optional<Eta> eta(long position) {
    if (position < 0) {
      throw new IllegalArgumentException("A position must not be negative, got " + position);
    }
    if (basis == Basis.NONE) {
      return Optional.empty();
    }
    // The job itself is served after the jobs ahead of it.
    double jobs = position + 1.0;
    double wait = jobs / rate;
    double fast;
    double slow;
    if (basis == Basis.MEASURED) {
      // Jobs served in `wait` seconds: per-second spread over that many seconds, plus the
      // uncertainty of the mean itself, which grows with the wait.
      double variance = spread * spread * (Math.max(wait, 1) + wait * wait / seconds);
      double delta = BAND_Z * Math.sqrt(variance) / wait;
      fast = uncapped + delta;
      slow = uncapped - delta;
    } else {
      fast = uncapped * EXPECTED_SPREAD;
      slow = uncapped / EXPECTED_SPREAD;
    }
    fast = Math.min(Math.max(fast, rate), cap);
    slow = Math.min(Math.max(slow, uncapped / SLOWEST_FACTOR), rate);
    double granularity = GRANULARITY.toMillis() / 1000.0;
    double earlier = wait - jobs / fast + granularity;
    double later = jobs / slow - wait + granularity;
    if (atLimit != null) {
      // The band keeps its width around the limit's schedule.
      wait = scheduled(position);
    }
    return Optional.of(
        new Eta(seconds(wait), seconds(Math.max(0, wait - earlier)), seconds(wait + later)));
  }

  /**
   * The wait of the job at {@code position} when the line is served at its rate limit L, in
   * seconds. A lease may be made when fewer than L leases were made in the last second, so lease i
   * from now can be made L leases after lease i − L, once that one's slot frees: for i below L it
   * is now when the window has a free slot (i + n < L, with n leases in the window), else when the
   * window's lease i + n − L frees, one second after it was made; each further L leases take one
   * cycle, L / rate seconds (a second at the limit, longer when the consumers lag behind it). The
   * window's leases are taken as spread evenly from its oldest to its newest.
   */
  private double scheduled(long position) {
    long limit = rateLimit;
    long n = atLimit.leases();
    long cycles = position / limit;
    long index = position % limit + n - limit;
    double first = 0;
    if (index >= 0) {
      double oldest = atLimit.oldestAgoMs();
      double spreadMs = oldest - atLimit.newestAgoMs();
      double madeAgo = n > 1 ? oldest - spreadMs * Math.min(index, n - 1) / (n - 1) : oldest;
      first = Math.max(0, 1000 - madeAgo) / 1000;
    }
    return first + cycles * (limit / rate);
  }

  @Override
  public String toString() {
    return "EtaEstimator[" + basis + ", " + rate + "/s over " + seconds + " s]";
  }

  /**
   * The per-second counts the rate is measured on: the complete seconds after the first second with
   * a completion, which is only partly covered when service started in it. When no complete second
   * follows, that first second counts as one (the rate then reads low at worst). Empty when nothing
   * was served.
   */
  static double[] samples(double[] counts) {
    int first = 0;
    while (first < counts.length && counts[first] == 0) {
      first++;
    }
    if (first == counts.length) {
      return new double[0];
    }
    // The last count is the running second.
    int lastComplete = counts.length - 2;
    if (first + 1 <= lastComplete) {
      return Arrays.copyOfRange(counts, first + 1, lastComplete + 1);
    }
    return new double[] {counts[first]};
  }

  /**
   * Where the current rate began: the latest second at which the typical count changed. A split of
   * the samples is a change when the medians before and after it differ by more than {@link
   * #MIN_CHANGE} of the larger and by more than {@link #CHANGE_Z} standard errors, with at least
   * {@link #MIN_RECENT_SECONDS} after it: medians, so that a single odd second (a stall, a burst
   * across a second's edge) is not taken for a change. Of the splits that are changes, the one
   * where the means before and after differ most (weighted by the seconds on each side, as a binary
   * segmentation does) is taken, and the part after it is searched again.
   */
  static int changeStart(double[] x) {
    int start = 0;
    while (true) {
      double noise = noise(x, start);
      // The seconds before and after the split, each kept sorted as the split moves on, so a
      // median is read off at once (a reading makes one estimate; this keeps it to microseconds).
      double[] before = new double[x.length - start];
      int beforeCount = 0;
      double[] after = Arrays.copyOfRange(x, start, x.length);
      Arrays.sort(after);
      int afterCount = after.length;
      double beforeSum = 0;
      double afterSum = 0;
      for (int i = start; i < x.length; i++) {
        afterSum += x[i];
      }
      int best = -1;
      double bestContrast = 0;
      for (int split = start + 1; split <= x.length - MIN_RECENT_SECONDS; split++) {
        double moved = x[split - 1];
        afterCount = remove(after, afterCount, moved);
        beforeCount = insert(before, beforeCount, moved);
        beforeSum += moved;
        afterSum -= moved;
        double medianBefore = median(before, beforeCount);
        double medianAfter = median(after, afterCount);
        double larger = Math.max(medianBefore, medianAfter);
        double diff = Math.abs(medianAfter - medianBefore);
        if (diff <= MIN_CHANGE * larger) {
          continue;
        }
        // Completions are at least as irregular as random arrivals, whose spread is the root of
        // the count: a floor for the exact counts of a steady, rate-limited consumer.
        double sd = Math.max(noise, Math.sqrt(larger));
        if (diff <= CHANGE_Z * MEDIAN_SE * sd * Math.sqrt(1.0 / beforeCount + 1.0 / afterCount)) {
          continue;
        }
        double contrast =
            Math.abs(afterSum / afterCount - beforeSum / beforeCount)
                * Math.sqrt((double) beforeCount * afterCount / (beforeCount + afterCount));
        if (contrast > bestContrast) {
          bestContrast = contrast;
          best = split;
        }
      }
      if (best < 0) {
        return start;
      }
      start = best;
    }
  }

  /** Inserts {@code value} into the sorted first {@code count} values; returns the new count. */
  private static int insert(double[] sorted, int count, double value) {
    int at = count;
    while (at > 0 && sorted[at - 1] > value) {
      sorted[at] = sorted[at - 1];
      at--;
    }
    sorted[at] = value;
    return count + 1;
  }

  /**
   * Removes one {@code value} from the sorted first {@code count} values; returns the new count.
   */
  private static int remove(double[] sorted, int count, double value) {
    int at = Arrays.binarySearch(sorted, 0, count, value);
    System.arraycopy(sorted, at + 1, sorted, at, count - at - 1);
    return count - 1;
  }

  private static double median(double[] sorted, int count) {
    return count % 2 == 1 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2;
  }

  /**
   * The spread of the counts from {@code start}, from the median of the differences between
   * neighbouring seconds, which a change of rate moves by one difference only.
   */
  private static double noise(double[] x, int start) {
    int n = x.length - start - 1;
    if (n < 1) {
      return 0;
    }
    double[] diffs = new double[n];
    for (int i = 0; i < n; i++) {
      diffs[i] = Math.abs(x[start + i + 1] - x[start + i]);
    }
    Arrays.sort(diffs);
    return MAD_TO_SD * median(diffs, n) / Math.sqrt(2);
  }

  private static double mean(double[] x) {
    double sum = 0;
    for (double v : x) {
      sum += v;
    }
    return sum / x.length;
  }

  private static double sd(double[] x, double mean) {
    double squares = 0;
    for (double v : x) {
      squares += (v - mean) * (v - mean);
    }
    return Math.sqrt(squares / (x.length - 1));
  }

  /** Seconds as a duration in whole milliseconds (huge values saturate). */
  private static Duration seconds(double seconds) {
    return Duration.ofMillis(Math.round(seconds * 1000));
  }
}
