package io.lineup.spring;

/**
 * A started worker of one {@link LineupHandler}, whatever the mode: its counts, for the health
 * indicator and the meters, and its graceful stop.
 */
public interface RunningWorker extends AutoCloseable {
  /** The queue, {@code namespace/name}. */
  String queue();

  /** Jobs being handled now. */
  int inFlight();

  /** Jobs whose handler returned, since start. */
  long handled();

  /** Jobs whose handler threw, since start. */
  long failed();

  /**
   * Stops leasing, lets running jobs finish within the shutdown grace, then interrupts them and
   * gives their jobs back.
   */
  @Override
  void close();
}
