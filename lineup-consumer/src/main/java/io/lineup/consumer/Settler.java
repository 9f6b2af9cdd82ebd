package io.lineup.consumer;

import java.lang.System.Logger.Level;

/**
 * Makes one settling call (ack, nack, give back) for a job, trying again while the source is
 * unavailable (5 tries, 100 ms doubling); a lost lease or a refusal ends it.
 */
final class Settler {
  static final int TRIES = 5;

  private final LeaseSource<?> source;
  private final ConsumerLog log;

  Settler(LeaseSource<?> source, ConsumerLog log) {
    this.source = source;
    this.log = log;
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
            log.log(Level.DEBUG, () -> what + " of job " + id + " not needed: " + e.getMessage());
            return;
          }
          case REFUSED -> {
            log.log(
                Level.WARNING, () -> what + " of job " + id + " was refused: " + e.getMessage());
            return;
          }
          case UNAVAILABLE -> ConsumerLoop.sleep(100L << attempt);
        }
      }
    }
    log.log(
        Level.WARNING,
        () ->
            "Could not "
                + what
                + " job "
                + id
                + "; it will be delivered again when its lease ends");
  }
}
