package io.lineup.core.model;

import java.util.Locale;

/**
 * The lists a queue's jobs can be read in by state ({@code Lineup.listJobs}), each one sorted set
 * in Redis and read in that set's order, first to last or last to first.
 */
public enum JobList {
  /** Ready jobs in lease order: higher priority first, then arrival (a fair queue: turn order). */
  READY,
  /** Delayed jobs (delays, run-at times, retry backoffs) by due time, soonest first. */
  DELAYED,
  /** Leased jobs by lease deadline, soonest first. */
  LEASED,
  /** Dead letters by time of death, oldest first. */
  DEAD,
  /**
   * Finished records kept for retention (done, cancelled, expired) by finish time, oldest first.
   */
  FINISHED;

  /** The name the scripts and the HTTP API use, e.g. {@code ready}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The list of a wire name, case-insensitive.
   *
   * @throws InvalidArgumentException naming {@code state} when there is no such list
   */
  public static JobList of(String name) {
    if (name != null) {
      for (JobList list : values()) {
        if (list.wireName().equalsIgnoreCase(name)) {
          return list;
        }
      }
    }
    throw new InvalidArgumentException(
        "state", "must be one of ready, delayed, leased, dead, finished; got " + name);
  }
}
