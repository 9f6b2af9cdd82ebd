package io.lineup.server.history;

import io.lineup.core.model.QueueStats;

/**
 * One reading of a queue kept in its history: depths at a moment, the lifetime counters then, and
 * the rates since the reading before it.
 *
 * @param at Redis server time of the reading, epoch ms
 * @param ready jobs in the ready line
 * @param delayed jobs waiting for their due time
 * @param leased jobs held by consumers
 * @param dead dead letters
 * @param published lifetime count of published jobs
 * @param completed lifetime count of acked jobs
 * @param failed lifetime count of failed deliveries (retried plus dead)
 * @param leasedTotal lifetime count of deliveries (leases)
 * @param drainEtaMs the estimated time to serve every job ready at the reading, ms; -1 without an
 *     estimate
 * @param publishedPerSecond published per second since the previous reading (0 without one)
 * @param completedPerSecond completed per second since the previous reading (0 without one)
 * @param failedPerSecond failed per second since the previous reading (0 without one)
 */
public record QueueSample(
    long at,
    long ready,
    long delayed,
    long leased,
    long dead,
    long published,
    long completed,
    long failed,
    long leasedTotal,
    long drainEtaMs,
    double publishedPerSecond,
    double completedPerSecond,
    double failedPerSecond) {

  /**
   * A reading from a queue's statistics, with rates against the previous reading.
   *
   * @param stats the statistics just read
   * @param previous the reading before, or null; ignored when not older than this one
   */
  public static QueueSample of(QueueStats stats, QueueSample previous) {
    long at = stats.readAt().toEpochMilli();
    long published = counter(stats, "published");
    long completed = counter(stats, "acked");
    long failed = counter(stats, "retried") + counter(stats, "dead");
    double p = 0;
    double c = 0;
    double f = 0;
    if (previous != null && previous.at < at) {
      double seconds = (at - previous.at) / 1000.0;
      p = perSecond(published - previous.published, seconds);
      c = perSecond(completed - previous.completed, seconds);
      f = perSecond(failed - previous.failed, seconds);
    }
    return new QueueSample(
        at,
        stats.ready(),
        stats.delayed(),
        stats.leased(),
        stats.dead(),
        published,
        completed,
        failed,
        counter(stats, "leased"),
        stats.drainEta() == null ? -1 : stats.drainEta().point().toMillis(),
        p,
        c,
        f);
  }

  private static long counter(QueueStats stats, String name) {
    Long value = stats.counters().get(name);
    return value == null ? 0 : value;
  }

  /** A rate rounded to 0.01; a counter that went down (a reset) counts as no change. */
  private static double perSecond(long delta, double seconds) {
    return delta <= 0 ? 0 : Math.round(delta / seconds * 100.0) / 100.0;
  }

  /** The stored form: the fields in order, comma-separated. */
  public String encode() {
    return at
        + ","
        + ready
        + ","
        + delayed
        + ","
        + leased
        + ","
        + dead
        + ","
        + published
        + ","
        + completed
        + ","
        + failed
        + ","
        + leasedTotal
        + ","
        + drainEtaMs
        + ","
        + publishedPerSecond
        + ","
        + completedPerSecond
        + ","
        + failedPerSecond;
  }

  /**
   * A stored reading.
   *
   * @throws IllegalArgumentException when the text is not one written by {@link #encode()}
   */
  public static QueueSample decode(String text) {
    String[] f = text.split(",");
    if (f.length != 13) {
      throw new IllegalArgumentException("not a stored queue sample: " + text);
    }
    try {
      return new QueueSample(
          Long.parseLong(f[0]),
          Long.parseLong(f[1]),
          Long.parseLong(f[2]),
          Long.parseLong(f[3]),
          Long.parseLong(f[4]),
          Long.parseLong(f[5]),
          Long.parseLong(f[6]),
          Long.parseLong(f[7]),
          Long.parseLong(f[8]),
          Long.parseLong(f[9]),
          Double.parseDouble(f[10]),
          Double.parseDouble(f[11]),
          Double.parseDouble(f[12]));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a stored queue sample: " + text, e);
    }
  }
}
