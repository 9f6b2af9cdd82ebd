package io.lineup.core.model;

/**
 * What a schedule does with the ticks it missed: ticks whose time passed more than {@link
 * ScheduleSpec#MISSED_AFTER} ago without a job, because no engine ran, Redis was down or the
 * schedule was paused.
 */
public enum MissedTicks {
  /**
   * One job for all the missed ticks, published at once (its tick is the latest missed one), then
   * on time again. The default.
   */
  SKIP,
  /**
   * One job per missed tick, oldest first, at most {@link ScheduleSpec#catchUpMax()} of them (the
   * latest ones), then on time again.
   */
  CATCH_UP,
  /** No job for the missed ticks: the next job is the first tick after now. */
  NONE
}
