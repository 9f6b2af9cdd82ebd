package io.lineup.core.model;

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
    /** This lease was nacked; the job waits for a retry, is dead, or was leased again. */
    NACKED,
    /** This lease was released; the job went back to its place in line. */
    RELEASED,
    /** The job was acknowledged (under this lease, for a nack or extend; else another one). */
    ACKED,
    /** The token is not one of the job's last two leases (mistyped, or much older). */
    WRONG_TOKEN,
    /** The job was cancelled while leased. */
    CANCELLED,
    /** The job's TTL passed while leased. */
    JOB_EXPIRED
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
      case LEASED_AGAIN -> "its time-to-run passed and it was leased again";
      case CANCELLED -> "the job was cancelled";
      case JOB_EXPIRED -> "the job's TTL passed";
      case NACKED -> "this lease was nacked";
      case RELEASED -> "this lease was released";
      case ACKED -> "the job was already acknowledged";
      case WRONG_TOKEN -> "the token is not a lease of this job";
    };
  }
}
