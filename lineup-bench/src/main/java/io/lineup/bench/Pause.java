package io.lineup.bench;

/** Short pauses between polls of a condition the bench cannot be told about. */
final class Pause {
  private Pause() {}

  /**
   * Sleeps; an interrupt ends the run.
   *
   * @throws IllegalStateException when interrupted
   */
  static void millis(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted", e);
    }
  }
}
