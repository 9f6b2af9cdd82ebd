package io.lineup.pass;

import java.security.GeneralSecurityException;
import java.security.NoSuchAlgorithmException;
import java.security.ProviderException;
import java.security.PublicKey;
import java.security.Signature;

/**
 * Verifies Ed25519 signatures of one public key with the JDK's {@code
 * Signature.getInstance("Ed25519")} (RFC 8032, cofactorless: S of L or more, non-canonical or
 * off-curve R and keys refused). The default verifier of a {@link PassVerifier}. Thread-safe: a
 * {@code Signature} is not, so each check takes its own.
 */
final class JdkEd25519Verifier implements SignatureCheck {
  private final PublicKey key;

  private JdkEd25519Verifier(PublicKey key) {
    this.key = key;
  }

  /**
   * The verifier of a key. A key that is not an Ed25519 key, or not a point of the curve, gives a
   * verifier that refuses every signature (the JDK refuses it at the check, not here).
   */
  static JdkEd25519Verifier of(PublicKey key) {
    return new JdkEd25519Verifier(key);
  }

  @Override
  public boolean verify(byte[] message, byte[] signature) {
    if (signature == null || signature.length != 64) {
      return false; // the JDK throws for a wrong length; said once here for every caller
    }
    Signature check;
    try {
      check = Signature.getInstance("Ed25519");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JDK has no Ed25519", e);
    }
    try {
      check.initVerify(key);
      check.update(message);
      return check.verify(signature);
    } catch (GeneralSecurityException | IllegalArgumentException | ProviderException e) {
      // An invalid key (InvalidKeyException, at initVerify or when its point is decoded) or an
      // invalid R or S (SignatureException): not a signature of this key. Anything else the
      // provider throws refuses too: a pass is let in only on a clear yes.
      return false;
    }
  }
}
