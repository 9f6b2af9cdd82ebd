package io.lineup.pass;

/**
 * Which Ed25519 verification a {@link PassVerifier} uses for the first check of a pass (a pass it
 * remembers is not verified again, whichever is chosen).
 */
public enum Ed25519Engine {
  /**
   * The JDK's {@code Signature.getInstance("Ed25519")}: the default. About 400–550 µs a check on a
   * core of the bench machine (JDK 25).
   */
  JDK,
  /**
   * Lineup-pass's own verifier, opt-in for speed: the same answers as the JDK on every input (shown
   * by the Wycheproof vectors and a differential test against the JDK and BouncyCastle), with the
   * multiples of each key tabulated at its first check (about 280 KB a key, and 0.5 MB once per
   * process for the base point), then about 20 µs a check. Not constant-time, which is fine: it
   * handles only public data.
   */
  TABULATED
}
