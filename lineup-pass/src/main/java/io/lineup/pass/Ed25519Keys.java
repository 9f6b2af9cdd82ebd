package io.lineup.pass;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;

/**
 * Ed25519 keys in the forms passes use: the raw 32-byte public key of a JWK ({@code x}), and the
 * PKCS #8 text a signer keeps its private key in.
 */
public final class Ed25519Keys {
  /** Length of a raw Ed25519 public key, in bytes. */
  public static final int RAW_LENGTH = 32;

  // The X.509 SubjectPublicKeyInfo of an Ed25519 key is this fixed DER prefix and the raw key
  // (RFC 8410), so the raw form is cut from it and put back under it.
  private static final byte[] X509_PREFIX = {
    0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00
  };

  private Ed25519Keys() {}

  /** A new key pair from the JDK's default secure random source. */
  public static KeyPair generate() {
    try {
      return KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JDK has no Ed25519", e);
    }
  }

  /** The raw 32-byte public key (a JWK's {@code x} before base64url). */
  public static byte[] raw(PublicKey key) {
    byte[] der = key.getEncoded();
    if (der.length != X509_PREFIX.length + RAW_LENGTH
        || !Arrays.equals(der, 0, X509_PREFIX.length, X509_PREFIX, 0, X509_PREFIX.length)) {
      throw new IllegalArgumentException("not an Ed25519 public key");
    }
    return Arrays.copyOfRange(der, X509_PREFIX.length, der.length);
  }

  /**
   * The public key of 32 raw bytes.
   *
   * @throws IllegalArgumentException when there are not 32 bytes or they are no Ed25519 point
   */
  public static PublicKey fromRaw(byte[] raw) {
    if (raw.length != RAW_LENGTH) {
      throw new IllegalArgumentException("an Ed25519 public key has 32 bytes, not " + raw.length);
    }
    byte[] der = Arrays.copyOf(X509_PREFIX, X509_PREFIX.length + RAW_LENGTH);
    System.arraycopy(raw, 0, der, X509_PREFIX.length, RAW_LENGTH);
    try {
      return KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(der));
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("not an Ed25519 public key", e);
    }
  }

  /** The private key as base64 of its PKCS #8 form, for storage by a signer. */
  public static String privateKeyText(PrivateKey key) {
    return Base64.getEncoder().encodeToString(key.getEncoded());
  }

  /**
   * The private key from {@link #privateKeyText}.
   *
   * @throws IllegalArgumentException when the text is not such a key
   */
  public static PrivateKey privateKeyFromText(String text) {
    try {
      return KeyFactory.getInstance("Ed25519")
          .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(text)));
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new IllegalArgumentException("not an Ed25519 private key", e);
    }
  }
}
