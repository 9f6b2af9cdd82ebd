package io.lineup.spring;

/**
 * Told of each {@link LineupHandler} worker as it starts: the starter's meters use it, and an
 * application may too (declare a bean).
 */
@FunctionalInterface
public interface LineupWorkerListener {
  /**
   * A worker started; it stays valid until the context stops.
   *
   * @param worker its queue and live counts
   */
  void started(RunningWorker worker);
}
