package io.lineup.bench;

/**
 * Tells when a warm-up's CPU time per operation has held still: {@link #ROUNDS} rounds in a row,
 * each within {@link #TOLERANCE} of the one before. Why three and not two: the JIT compiler works
 * in waves, and two rounds alike ended a warm-up while the bench still spent twice its steady CPU
 * per operation, in about one run of three.
 */
final class Steadiness {
  /** Largest relative difference of CPU per operation between two rounds that counts as alike. */
  static final double TOLERANCE = 0.05;

  /** Rounds in a row that must be alike. */
  static final int ROUNDS = 3;

  private double previous;
  private int alike;

  /**
   * Notes one round's CPU time per operation (any unit, the same every round).
   *
   * @return true once this round and the {@link #ROUNDS} - 1 before it are alike
   */
  boolean observe(double cpuPerOperation) {
    boolean close = alike > 0 && Math.abs(cpuPerOperation - previous) <= TOLERANCE * previous;
    alike = close ? alike + 1 : 1;
    previous = cpuPerOperation;
    return alike >= ROUNDS;
  }
}
