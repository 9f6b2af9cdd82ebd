package io.lineup.pass;

/** A pass that must not be honoured, with the reason. The message never repeats the token. */
public final class PassRejectedException extends Exception {
  private static final long serialVersionUID = 1L;

  /** Why a pass was refused. */
  public enum Reason {
    /** Not three base64url parts of JSON with the claims a pass has, or longer than allowed. */
    MALFORMED,
    /** The header names an algorithm other than {@code EdDSA} (for one, {@code none}). */
    UNSUPPORTED_ALGORITHM,
    /** The header's {@code kid} names no key the verifier knows. */
    UNKNOWN_KEY,
    /** The signature does not match the header and claims (altered, or signed by another key). */
    BAD_SIGNATURE,
    /** Its audience is another room. */
    WRONG_ROOM,
    /** Its expiry has passed. */
    EXPIRED,
    /** It was issued in the future (beyond the allowed clock skew). */
    NOT_YET_VALID,
    /** Lineup revoked it, or its ticket left (only known to the online check). */
    REVOKED
  }

  private final Reason reason;

  /**
   * @param reason why
   * @param message what was wrong, for logs
   */
  public PassRejectedException(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  /** Why the pass was refused. */
  public Reason reason() {
    return reason;
  }
}
