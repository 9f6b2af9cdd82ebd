package io.lineup.bench.report;

/**
 * One measured figure of a run.
 *
 * @param name the JSON name, e.g. {@code publish_per_s}
 * @param value the measured value, in {@link Unit}
 * @param unit what the value counts
 * @param redisCpuMicrosPerJob Redis CPU time (user + system, all its threads) spent during the
 *     measured phase of the scenario, divided by the jobs (or calls, or lookups) it handled; in
 *     microseconds
 * @param benchCpuMicrosPerJob CPU time of the bench's own JVM (the engine and the load generator)
 *     in the same phase, divided likewise; in microseconds. Redis and the bench share the machine's
 *     cores, so the two CPU figures together show where a job's cost lies.
 * @param jobs how many jobs, calls or lookups the measured phase handled
 */
public record Figure(
    String name,
    double value,
    Unit unit,
    double redisCpuMicrosPerJob,
    double benchCpuMicrosPerJob,
    long jobs) {

  /** What a figure counts, and how it relates to the reference rate. */
  public enum Unit {
    /** Operations per second: the ratio to the reference is value ÷ raw_script_per_s. */
    PER_SECOND("/s"),
    /**
     * A duration in milliseconds: the ratio is value ÷ (1 s ÷ raw_script_per_s), i.e. how many
     * reference calls fit in it.
     */
    MILLISECONDS("ms"),
    /** A duration in microseconds: the ratio as for {@link #MILLISECONDS}. */
    MICROSECONDS("µs"),
    /** Bytes: memory does not scale with the reference rate, so there is no ratio. */
    BYTES("B"),
    /** A percentage (an error), which does not scale with the reference rate: no ratio. */
    PERCENT("%"),
    /** A share from 0 to 1, which does not scale with the reference rate: no ratio. */
    SHARE(""),
    /**
     * A ratio of two measured quantities (e.g. achieved rate ÷ limit): no ratio to the reference.
     */
    RATIO("×"),
    /** A number of events (e.g. requests that should not have been made): no ratio. */
    COUNT("");

    private final String symbol;

    Unit(String symbol) {
      this.symbol = symbol;
    }

    /** The unit as printed in the table. */
    public String symbol() {
      return symbol;
    }
  }

  /**
   * This figure relative to the reference rate, or NaN when the unit has no such ratio.
   *
   * @param rawScriptPerSecond the reference rate (calls per second)
   */
  public double ratioTo(double rawScriptPerSecond) {
    return switch (unit) {
      case PER_SECOND -> value / rawScriptPerSecond;
      case MILLISECONDS -> value / 1_000.0 * rawScriptPerSecond;
      case MICROSECONDS -> value / 1_000_000.0 * rawScriptPerSecond;
      case BYTES, PERCENT, SHARE, RATIO, COUNT -> Double.NaN;
    };
  }
}
