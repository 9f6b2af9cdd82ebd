package io.lineup.consumer;

/**
 * A lease call sent by a {@link LeaseSource} whose reply is read later, on the loop's thread. A
 * source that answers at once (a blocking HTTP long-poll) returns {@link #answered}.
 *
 * @param <J> the source's leased job
 */
public interface LeaseCall<J> {
  /** The most jobs the call asked for (0 = it only carries settlements). */
  int count();

  /** Whether the reply (or the failure) has come. */
  boolean isDone();

  /** Runs {@code action} once the reply or the failure has come (at once if it has). */
  void whenDone(Runnable action);

  /**
   * Waits for the reply and returns it. An interrupt must not lose jobs the call may have leased.
   *
   * @throws RuntimeException when the call failed; the loop backs off and leases again
   */
  LeaseReply<J> await();

  /** A call whose reply is already here. */
  static <J> LeaseCall<J> answered(int count, LeaseReply<J> reply) {
    return new LeaseCall<>() {
      @Override
      public int count() {
        return count;
      }

      @Override
      public boolean isDone() {
        return true;
      }

      @Override
      public void whenDone(Runnable action) {
        action.run();
      }

      @Override
      public LeaseReply<J> await() {
        return reply;
      }
    };
  }
}
