package io.lineup.consumer;

/** What a failed call to a {@link LeaseSource} means for the loop's next step. */
public enum Failure {
  /** The lease is gone (it ended, or the job is gone): the job is no longer this consumer's. */
  LOST,
  /** The queue's store or server did not answer: the call is worth trying again soon. */
  UNAVAILABLE,
  /** The call was refused for another reason: trying it again would be refused again. */
  REFUSED
}
