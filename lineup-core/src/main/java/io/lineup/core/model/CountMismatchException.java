package io.lineup.core.model;

/**
 * An action on all jobs matching a filter was refused, nothing done, because the filter matches
 * another number of jobs than the caller expected (the caller confirms a bulk action by the count
 * it was shown; the list changed since).
 */
public final class CountMismatchException extends LineupException {
  private static final long serialVersionUID = 1L;

  private final long expected;
  private final long actual;

  /**
   * @param expected the count the caller confirmed
   * @param actual the jobs the filter matches now
   */
  public CountMismatchException(long expected, long actual) {
    super(
        "the filter matches "
            + actual
            + " jobs, not the "
            + expected
            + " expected; nothing was done");
    this.expected = expected;
    this.actual = actual;
  }

  /** The count the caller confirmed. */
  public long expected() {
    return expected;
  }

  /** The jobs the filter matches now. */
  public long actual() {
    return actual;
  }
}
