package io.lineup.core.internal.store;

/** Result codes the scripts return; mirrors {@code lib/codes.lua} (ScriptCodesTest checks it). */
public enum ScriptCode {
  /** Done as asked (also a repeated ack of the same lease). */
  OK(1),
  /** Publish: a job with this id or unique key exists already. */
  EXISTS(2),
  /** No record of this job. */
  NOT_FOUND(-1),
  /** The token's lease ran out; the job waits again or is dead. */
  LEASE_EXPIRED(-2),
  /** The token's lease ran out and the job was leased again since. */
  LEASED_AGAIN(-3),
  /** The job was cancelled. */
  CANCELLED(-4),
  /** The job's TTL passed. */
  EXPIRED(-5),
  /** The job was acked already (for nack and extend also under this lease). */
  ALREADY_DONE(-6),
  /** The token's lease was nacked. */
  NACKED(-7),
  /** The token's lease was released. */
  RELEASED(-8),
  /** The token is not one of the job's last two leases. */
  WRONG_TOKEN(-9),
  /** Replace of a record: it holds another value than the one expected. */
  CHANGED(-10);

  private final int code;

  ScriptCode(int code) {
    this.code = code;
  }

  /** The number the scripts use. */
  public int code() {
    return code;
  }

  /**
   * The constant for a number a script returned.
   *
   * @throws IllegalStateException for a number no script returns
   */
  public static ScriptCode of(long code) {
    for (ScriptCode value : values()) {
      if (value.code == code) {
        return value;
      }
    }
    throw new IllegalStateException("Unknown script code " + code);
  }
}
