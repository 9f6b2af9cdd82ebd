package io.lineup.pass;

import java.math.BigInteger;

/** Scalars of Ed25519: integers modulo the group order L, as 32 little-endian bytes. */
final class Scalar25519 {
  /** L = 2^252 + 27742317777372353535851937790883648493, the order of the base point. */
  static final BigInteger L =
      BigInteger.ONE.shiftLeft(252).add(new BigInteger("27742317777372353535851937790883648493"));

  private static final byte[] L_BYTES = Field25519.littleEndian(L);

  private Scalar25519() {}

  /** Whether the 32 little-endian bytes from {@code offset} are a number below L. */
  static boolean isBelowOrder(byte[] bytes, int offset) {
    for (int i = 31; i >= 0; i--) {
      int a = bytes[offset + i] & 0xFF;
      int b = L_BYTES[i] & 0xFF;
      if (a != b) {
        return a < b;
      }
    }
    return false; // equal to L
  }

  /** A little-endian number of any length (a SHA-512 digest) modulo L, as 32 bytes. */
  static byte[] reduce(byte[] littleEndian) {
    byte[] big = new byte[littleEndian.length];
    for (int i = 0; i < big.length; i++) {
      big[i] = littleEndian[littleEndian.length - 1 - i];
    }
    return Field25519.littleEndian(new BigInteger(1, big).mod(L));
  }
}
