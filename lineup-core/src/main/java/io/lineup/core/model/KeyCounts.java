package io.lineup.core.model;

import java.util.List;

/**
 * The fairness keys of a fair queue with the most jobs waiting or leased.
 *
 * @param keysWaiting how many keys have jobs waiting
 * @param keysLeased how many keys have jobs leased
 * @param top up to the asked number of keys, most jobs first
 */
public record KeyCounts(long keysWaiting, long keysLeased, List<KeyCount> top) {
  /**
   * One key's count.
   *
   * @param key the key
   * @param count its jobs waiting or leased, as asked
   */
  public record KeyCount(String key, long count) {}

  /** What keys are ranked by. */
  public enum By {
    /** Jobs waiting: ready, delayed or held by a pause. */
    WAITING,
    /** Jobs leased now. */
    LEASED
  }
}
