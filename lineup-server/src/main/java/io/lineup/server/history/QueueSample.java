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

  /**
   * This reading with its rates taken over the time since {@code before} (a minute reading's rates
   * are then the minute's means); with rates 0 when {@code before} is null or not older.
   */
  public QueueSample withRatesSince(QueueSample before) {
    double p = 0;
    double c = 0;
    double f = 0;
    if (before != null && before.at < at) {
      double seconds = (at - before.at) / 1000.0;
      p = perSecond(published - before.published, seconds);
      c = perSecond(completed - before.completed, seconds);
      f = perSecond(failed - before.failed, seconds);
    }
    return new QueueSample(
        at,
        ready,
        delayed,
        leased,
        dead,
        published,
        completed,
        failed,
        leasedTotal,
        drainEtaMs,
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

  /**
   * The stored form: the reading's numbers in base 36, comma-separated, without its rates (derived
   * when read, from the reading before: {@link #withRatesSince}). About 60 characters for a busy
   * queue instead of 110 in decimal with rates, which halves the history's memory.
   */
  public String encode() {
    long[] values = {
      at, ready, delayed, leased, dead, published, completed, failed, leasedTotal, drainEtaMs
    };
    StringBuilder text = new StringBuilder(64);
    for (int i = 0; i < values.length; i++) {
      if (i > 0) {
        text.append(',');
      }
      text.append(Long.toString(values[i], Character.MAX_RADIX));
    }
    return text.toString();
  }

  /**
   * A stored reading, with rates 0 (see {@link #withRatesSince}).
   *
   * @throws IllegalArgumentException when the text is not one written by {@link #encode()}
   */
  public static QueueSample decode(String text) {
    String[] f = text.split(",");
    if (f.length != 10) {
      throw new IllegalArgumentException("not a stored queue sample: " + text);
    }
    long[] v = new long[10];
    try {
      for (int i = 0; i < v.length; i++) {
        v[i] = Long.parseLong(f[i], Character.MAX_RADIX);
      }
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a stored queue sample: " + text, e);
    }
    return new QueueSample(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], 0, 0, 0);
  }
}
