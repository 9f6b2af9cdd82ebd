package io.lineup.core;

/**
 * An ack, nack or extend came with a lease token that no longer holds the job. {@link #reason()}
 * says why; the job is in the state that reason names and this consumer must not act on it.
 */
public class LeaseLostException extends LineupException {
  /** Why a lease no longer holds its job. */
  public enum Reason {
    /** The time-to-run passed; the job went back to the line or to dead letters. */
    EXPIRED_LEASE,
    /** The lease ran out and another consumer leased the job since. */
    LEASED_AGAIN,
    /** The job was cancelled while leased. */
    CANCELLED,
    /** The job's TTL passed while leased. */
    JOB_EXPIRED,
    /** The job was already acknowledged under another lease. */
    ALREADY_DONE
  }

  private final Reason reason;
  private final String jobId;

  public LeaseLostException(String jobId, Reason reason) {
    super("Lease of job " + jobId + " is no longer valid: " + describe(reason));
    this.reason = reason;
    this.jobId = jobId;
  }

  public Reason reason() {
    return reason;
  }

  public String jobId() {
    return jobId;
  }

  private static String describe(Reason reason) {
    return switch (reason) {
      case EXPIRED_LEASE -> "its time-to-run passed without ack or extend";
      case LEASED_AGAIN -> "its lease ran out and it was leased again";
      case CANCELLED -> "the job was cancelled";
      case JOB_EXPIRED -> "the job's TTL passed";
      case ALREADY_DONE -> "the job was already acknowledged";
    };
  }
}
