package io.lineup.pass;

import java.math.BigInteger;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.security.interfaces.EdECPublicKey;
import java.security.spec.EdECPoint;
import java.security.spec.NamedParameterSpec;
import java.util.Arrays;

/**
 * Verifies Ed25519 signatures (RFC 8032) of one public key A, with the same answers as the JDK's
 * {@code Signature.getInstance("Ed25519")}: the cofactorless equation [S]B = R + [k]A with k =
 * SHA-512(R || A || M) mod L, S of L or more refused, and A and R refused when their y is not below
 * p, they are not on the curve, or x = 0 carries the sign bit. Faster because A is decoded and its
 * multiples are tabulated once per key, and B's once per process; a check then adds 69 table points
 * (no doubling), and encodes the result to compare it with R's bytes (R's bytes equal the encoding
 * of [S]B - [k]A exactly when R is a valid encoding of that point).
 *
 * <p>Not constant-time, which is fine: it handles only public data. Immutable and thread-safe.
 */
final class Ed25519Verifier implements SignatureCheck {
  // B's table is made once: 8-bit digits in one pass, 32 additions for [S]B (4,096 points, about
  // 0.5 MB). A key's at its first check: 7-bit digits in one pass, 37 additions for [k]A and no
  // doubling (2,368 points, about 280 KB a key); 6-bit digits in two passes would take 85 KB but
  // 43 additions and 6 doublings, about 8 % more time a check.
  private static final int BASE_WINDOW_BITS = 8;
  private static final int KEY_WINDOW_BITS = 7;
  private static final int KEY_PASSES = 1;
  private static final MultiplesTable BASE_TABLE;
  private static final MessageDigest SHA512;

  static {
    BigInteger p = Field25519.P;
    // B's y is 4/5 and its x is even (RFC 8032 section 5.1).
    BigInteger y = BigInteger.valueOf(4).multiply(BigInteger.valueOf(5).modInverse(p)).mod(p);
    EdwardsPoint base = EdwardsPoint.decode(Field25519.littleEndian(y), 0);
    BASE_TABLE = new MultiplesTable(base, BASE_WINDOW_BITS, 1);
    try {
      SHA512 = MessageDigest.getInstance("SHA-512");
    } catch (NoSuchAlgorithmException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final byte[] encodedKey; // A's 32 bytes, hashed into k
  private final EdwardsPoint key; // A, never changed; null when A is refused: nothing verifies
  // Made at the first check, so that keys that check nothing (a server holds one per room) cost
  // no table. Two threads may both make it; either result is the same.
  private volatile MultiplesTable keyTable;

  private Ed25519Verifier(byte[] encodedKey, EdwardsPoint key) {
    this.encodedKey = encodedKey;
    this.key = key;
  }

  /**
   * The verifier of a key of 32 encoded bytes. A key the JDK would refuse gives a verifier that
   * refuses every signature.
   */
  static Ed25519Verifier of(byte[] encodedKey) {
    if (encodedKey == null || encodedKey.length != 32) {
      return new Ed25519Verifier(new byte[32], null);
    }
    byte[] key = encodedKey.clone();
    return new Ed25519Verifier(key, EdwardsPoint.decode(key, 0));
  }

  /**
   * The verifier of an Ed25519 public key: its point if it is a JDK {@link EdECPublicKey} of
   * Ed25519, else the last 32 bytes of its X.509 encoding. A key of another curve or form gives a
   * verifier that refuses every signature, as the JDK's would refuse the key.
   */
  static Ed25519Verifier of(PublicKey key) {
    if (key instanceof EdECPublicKey ed) {
      if (!(ed.getParams() instanceof NamedParameterSpec named)
          || !"Ed25519".equalsIgnoreCase(named.getName())) {
        return of((byte[]) null);
      }
      EdECPoint point = ed.getPoint();
      BigInteger y = point.getY();
      if (y.signum() < 0 || y.compareTo(Field25519.P) >= 0) {
        return of((byte[]) null);
      }
      byte[] encoded = Field25519.littleEndian(y);
      if (point.isXOdd()) {
        encoded[31] |= (byte) 0x80;
      }
      return of(encoded);
    }
    try {
      return of(Ed25519Keys.raw(key));
    } catch (IllegalArgumentException e) {
      return of((byte[]) null);
    }
  }

  /**
   * Whether {@code signature} (64 bytes: R then S) is this key's signature of {@code message}. Any
   * malformed signature gives false.
   */
  @Override
  public boolean verify(byte[] message, byte[] signature) {
    if (key == null || signature == null || signature.length != 64) {
      return false;
    }
    if (!Scalar25519.isBelowOrder(signature, 32)) {
      return false;
    }
    MessageDigest sha = sha512();
    sha.update(signature, 0, 32);
    sha.update(encodedKey);
    sha.update(message);
    byte[] k = Scalar25519.reduce(sha.digest());
    MultiplesTable keyTable = this.keyTable;
    if (keyTable == null) {
      keyTable = new MultiplesTable(key, KEY_WINDOW_BITS, KEY_PASSES);
      this.keyTable = keyTable;
    }
    // [S]B - [k]A; with passes, A's later ones first so that their doublings precede the rest.
    EdwardsPoint sum = new EdwardsPoint();
    int[] kDigits = keyTable.digits(k, 0);
    for (int pass = keyTable.passes() - 1; pass > 0; pass--) {
      keyTable.addPass(sum, kDigits, pass, true);
      for (int j = 0; j < keyTable.windowBits(); j++) {
        sum.doubleInPlace();
      }
    }
    keyTable.addPass(sum, kDigits, 0, true);
    BASE_TABLE.addPass(sum, BASE_TABLE.digits(signature, 32), 0, false);
    return Arrays.equals(sum.encode(), 0, 32, signature, 0, 32);
  }

  /** A digest of its own: a MessageDigest is not thread-safe, and a clone is cheap to make. */
  private static MessageDigest sha512() {
    try {
      return (MessageDigest) SHA512.clone();
    } catch (CloneNotSupportedException e) {
      try {
        return MessageDigest.getInstance("SHA-512");
      } catch (NoSuchAlgorithmException impossible) {
        throw new IllegalStateException(impossible);
      }
    }
  }
}
