package io.lineup.consumer;

import java.lang.System.Logger.Level;

/**
 * Makes one settling call (ack, nack, give back) for a job, trying again while the source is
 * unavailable (5 tries, 100 ms doubling); a lost lease or a refusal ends it.
 */
final class Settler {
  private static final System.Logger LOG = System.getLogger(Settler.class.getName());
  static final int TRIES = 5;

  private final LeaseSource<?> source;

  Settler(LeaseSource<?> source) {
    this.source = source;
  }

  /** A settling call. */
  @FunctionalInterface
  interface Call {
    void run();
  }

  /**
   * Makes the call.
   *
   * @param id the job's id, for the log
   * @param what what the call does, for the log
   */
  void settle(String id, String what, Call call) {
    for (int attempt = 0; attempt < TRIES; attempt++) {
      try {
        call.run();
        return;
      } catch (RuntimeException e) {
        switch (source.classify(e)) {
          case LOST -> {
            LOG.log(Level.DEBUG, "{0} of job {1} not needed: {2}", what, id, e.getMessage());
            return;
          }
          case REFUSED -> {
            LOG.log(Level.WARNING, "{0} of job {1} was refused: {2}", what, id, e.getMessage());
            return;
          }
          case UNAVAILABLE -> ConsumerLoop.sleep(100L << attempt);
        }
      }
    }
    LOG.log(
        Level.WARNING,
        "Could not {0} job {1}; it will be delivered again when its lease ends",
        what,
        id);
  }
}
