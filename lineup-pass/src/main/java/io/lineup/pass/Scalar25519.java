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

  /**
   * The 64 signed base-16 digits e_i in [-8, 8] with sum e_i 16^i equal to the scalar, from the 32
   * little-endian bytes from {@code offset} of a number below 2^255.
   */
  static byte[] signedDigits(byte[] bytes, int offset) {
    byte[] e = new byte[64];
    for (int i = 0; i < 32; i++) {
      e[2 * i] = (byte) (bytes[offset + i] & 15);
      e[2 * i + 1] = (byte) ((bytes[offset + i] >> 4) & 15);
    }
    // A digit of 8 or more borrows 16 from the next: e - 16 in [-8, 0).
    for (int i = 0; i < 63; i++) {
      int carry = (e[i] + 8) >> 4;
      e[i] -= (byte) (carry << 4);
      e[i + 1] += (byte) carry;
    }
    return e; // the top digit is at most 7 + 1 since the number is below 2^255
  }
}
