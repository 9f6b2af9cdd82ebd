package io.lineup.pass;

/** Checks Ed25519 signatures of one public key. Implementations are thread-safe. */
interface SignatureCheck {
  /**
   * Whether {@code signature} (64 bytes: R then S) is the key's signature of {@code message}. Any
   * malformed signature, and any signature at all of a key that is no valid Ed25519 point, gives
   * false; nothing is thrown.
   */
  boolean verify(byte[] message, byte[] signature);
}
