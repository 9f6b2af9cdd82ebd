package io.lineup.server.history;

import java.util.List;

/**
 * How right the ETAs of the last job in line were, measured on a queue's history: for each reading
 * with jobs ready and an estimate, the time until as many jobs as were ready then had been leased
 * (the actual wait of the last in line, interpolated between the two readings around that moment,
 * so its error is up to one interval) against the estimate of that reading. A reading whose line
 * was not served through within the window is not counted. Jobs published later with a higher
 * priority go ahead of the last in line and make its actual wait longer than this measure says.
 *
 * @param checked readings compared
 * @param meanErrorPercent mean of |actual − estimate| / actual, in percent; -1 when none compared
 * @param lastEstimateMs the estimate of the latest compared reading, ms; -1 when none
 * @param lastActualMs the actual wait of the latest compared reading, ms; -1 when none
 */
public record EtaCheck(
    int checked, double meanErrorPercent, long lastEstimateMs, long lastActualMs) {

  /** Compares the estimates of the readings (oldest first) with what happened after them. */
  public static EtaCheck of(List<QueueSample> samples) {
    int checked = 0;
    double sum = 0;
    long lastEstimate = -1;
    long lastActual = -1;
    for (int i = 0; i < samples.size(); i++) {
      QueueSample start = samples.get(i);
      if (start.ready() == 0 || start.drainEtaMs() < 0) {
        continue;
      }
      for (int j = i + 1; j < samples.size(); j++) {
        QueueSample later = samples.get(j);
        long target = start.leasedTotal() + start.ready();
        if (later.leasedTotal() >= target) {
          QueueSample before = samples.get(j - 1);
          double fraction =
              (double) (target - before.leasedTotal())
                  / Math.max(1, later.leasedTotal() - before.leasedTotal());
          long actual =
              before.at() + Math.round(fraction * (later.at() - before.at())) - start.at();
          if (actual < 1) {
            break;
          }
          sum += Math.abs(actual - start.drainEtaMs()) * 100.0 / actual;
          checked++;
          lastEstimate = start.drainEtaMs();
          lastActual = actual;
          break;
        }
      }
    }
    double mean = checked == 0 ? -1 : Math.round(sum / checked * 10.0) / 10.0;
    return new EtaCheck(checked, mean, lastEstimate, lastActual);
  }
}
