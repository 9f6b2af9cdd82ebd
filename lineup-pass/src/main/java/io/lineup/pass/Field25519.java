package io.lineup.pass;

import java.math.BigInteger;

/**
 * Arithmetic modulo p = 2^255 - 19 on elements held as {@code long[10]}: ten signed limbs of
 * alternately 26 and 25 bits (limb i weighs 2^ceil(25.5 i)), so that a product of two limbs and the
 * sum of ten such products fit in a long without a 128-bit type.
 *
 * <p>Bounds (why no overflow): {@link #mul} and {@link #square} accept limbs of magnitude up to
 * 2^27 and give carried limbs of magnitude at most about 2^25; an {@link #add} or {@link #sub} of
 * two carried elements gives at most 2^26, and one more gives at most 2^27. The point formulas keep
 * to that. Every output array may be one of the inputs.
 *
 * <p>Not constant-time: it only ever handles public data (keys, signatures, messages).
 */
final class Field25519 {
  /** Number of limbs of an element. */
  static final int LIMBS = 10;

  static final BigInteger P = BigInteger.ONE.shiftLeft(255).subtract(BigInteger.valueOf(19));

  private static final int[] WIDTH = {26, 25, 26, 25, 26, 25, 26, 25, 26, 25};
  private static final int[] OFFSET = {0, 26, 51, 77, 102, 128, 153, 179, 204, 230};

  private Field25519() {}

  static long[] zero() {
    return new long[LIMBS];
  }

  static long[] one() {
    long[] r = new long[LIMBS];
    r[0] = 1;
    return r;
  }

  static long[] copy(long[] f) {
    return f.clone();
  }

  static void set(long[] out, long[] f) {
    System.arraycopy(f, 0, out, 0, LIMBS);
  }

  /** The element of a non-negative integer below 2^255 (reduced mod p otherwise). */
  static long[] of(BigInteger value) {
    return fromBytes(littleEndian(value.mod(P)), 0);
  }

  /** 32 little-endian bytes of a non-negative integer below 2^256. */
  static byte[] littleEndian(BigInteger value) {
    byte[] big = value.toByteArray();
    byte[] out = new byte[32];
    for (int i = 0; i < 32 && i < big.length; i++) {
      out[i] = big[big.length - 1 - i];
    }
    return out;
  }

  static void add(long[] out, long[] f, long[] g) {
    for (int i = 0; i < LIMBS; i++) {
      out[i] = f[i] + g[i];
    }
  }

  static void sub(long[] out, long[] f, long[] g) {
    for (int i = 0; i < LIMBS; i++) {
      out[i] = f[i] - g[i];
    }
  }

  static void negate(long[] out, long[] f) {
    for (int i = 0; i < LIMBS; i++) {
      out[i] = -f[i];
    }
  }

  /**
   * out = f * g. A limb pair (i, j) lands in limb i + j, times 2 when both are odd (their offsets
   * add up to one bit more than limb i + j's), times 19 when i + j is 10 or more (2^255 = 19 mod
   * p).
   */
  static void mul(long[] out, long[] f, long[] g) {
    long f0 = f[0], f1 = f[1], f2 = f[2], f3 = f[3], f4 = f[4];
    long f5 = f[5], f6 = f[6], f7 = f[7], f8 = f[8], f9 = f[9];
    long g0 = g[0], g1 = g[1], g2 = g[2], g3 = g[3], g4 = g[4];
    long g5 = g[5], g6 = g[6], g7 = g[7], g8 = g[8], g9 = g[9];
    long f1x2 = 2 * f1, f3x2 = 2 * f3, f5x2 = 2 * f5, f7x2 = 2 * f7, f9x2 = 2 * f9;
    long g1x19 = 19 * g1, g2x19 = 19 * g2, g3x19 = 19 * g3, g4x19 = 19 * g4, g5x19 = 19 * g5;
    long g6x19 = 19 * g6, g7x19 = 19 * g7, g8x19 = 19 * g8, g9x19 = 19 * g9;

    long h0 =
        f0 * g0
            + f1x2 * g9x19
            + f2 * g8x19
            + f3x2 * g7x19
            + f4 * g6x19
            + f5x2 * g5x19
            + f6 * g4x19
            + f7x2 * g3x19
            + f8 * g2x19
            + f9x2 * g1x19;
    long h1 =
        f0 * g1
            + f1 * g0
            + f2 * g9x19
            + f3 * g8x19
            + f4 * g7x19
            + f5 * g6x19
            + f6 * g5x19
            + f7 * g4x19
            + f8 * g3x19
            + f9 * g2x19;
    long h2 =
        f0 * g2
            + f1x2 * g1
            + f2 * g0
            + f3x2 * g9x19
            + f4 * g8x19
            + f5x2 * g7x19
            + f6 * g6x19
            + f7x2 * g5x19
            + f8 * g4x19
            + f9x2 * g3x19;
    long h3 =
        f0 * g3
            + f1 * g2
            + f2 * g1
            + f3 * g0
            + f4 * g9x19
            + f5 * g8x19
            + f6 * g7x19
            + f7 * g6x19
            + f8 * g5x19
            + f9 * g4x19;
    long h4 =
        f0 * g4
            + f1x2 * g3
            + f2 * g2
            + f3x2 * g1
            + f4 * g0
            + f5x2 * g9x19
            + f6 * g8x19
            + f7x2 * g7x19
            + f8 * g6x19
            + f9x2 * g5x19;
    long h5 =
        f0 * g5
            + f1 * g4
            + f2 * g3
            + f3 * g2
            + f4 * g1
            + f5 * g0
            + f6 * g9x19
            + f7 * g8x19
            + f8 * g7x19
            + f9 * g6x19;
    long h6 =
        f0 * g6
            + f1x2 * g5
            + f2 * g4
            + f3x2 * g3
            + f4 * g2
            + f5x2 * g1
            + f6 * g0
            + f7x2 * g9x19
            + f8 * g8x19
            + f9x2 * g7x19;
    long h7 =
        f0 * g7
            + f1 * g6
            + f2 * g5
            + f3 * g4
            + f4 * g3
            + f5 * g2
            + f6 * g1
            + f7 * g0
            + f8 * g9x19
            + f9 * g8x19;
    long h8 =
        f0 * g8
            + f1x2 * g7
            + f2 * g6
            + f3x2 * g5
            + f4 * g4
            + f5x2 * g3
            + f6 * g2
            + f7x2 * g1
            + f8 * g0
            + f9x2 * g9x19;
    long h9 =
        f0 * g9 + f1 * g8 + f2 * g7 + f3 * g6 + f4 * g5 + f5 * g4 + f6 * g3 + f7 * g2 + f8 * g1
            + f9 * g0;
    carry(out, h0, h1, h2, h3, h4, h5, h6, h7, h8, h9);
  }

  /**
   * out = f^2: the products of {@link #mul} with f = g, each pair (i, j) and (j, i) taken once
   * doubled, which needs 55 multiplications instead of 100.
   */
  static void square(long[] out, long[] f) {
    long f0 = f[0], f1 = f[1], f2 = f[2], f3 = f[3], f4 = f[4];
    long f5 = f[5], f6 = f[6], f7 = f[7], f8 = f[8], f9 = f[9];
    long f0x2 = 2 * f0, f1x2 = 2 * f1, f2x2 = 2 * f2, f3x2 = 2 * f3, f4x2 = 2 * f4;
    long f5x2 = 2 * f5, f6x2 = 2 * f6, f7x2 = 2 * f7;
    long f5x38 = 38 * f5, f6x19 = 19 * f6, f7x38 = 38 * f7, f8x19 = 19 * f8, f9x38 = 38 * f9;

    long h0 = f0 * f0 + f1x2 * f9x38 + f2x2 * f8x19 + f3x2 * f7x38 + f4x2 * f6x19 + f5 * f5x38;
    long h1 = f0x2 * f1 + f2 * f9x38 + f3x2 * f8x19 + f4 * f7x38 + f5x2 * f6x19;
    long h2 = f0x2 * f2 + f1x2 * f1 + f3x2 * f9x38 + f4x2 * f8x19 + f5x2 * f7x38 + f6 * f6x19;
    long h3 = f0x2 * f3 + f1x2 * f2 + f4 * f9x38 + f5x2 * f8x19 + f6 * f7x38;
    long h4 = f0x2 * f4 + f1x2 * f3x2 + f2 * f2 + f5x2 * f9x38 + f6x2 * f8x19 + f7 * f7x38;
    long h5 = f0x2 * f5 + f1x2 * f4 + f2x2 * f3 + f6 * f9x38 + f7x2 * f8x19;
    long h6 = f0x2 * f6 + f1x2 * f5x2 + f2x2 * f4 + f3x2 * f3 + f7x2 * f9x38 + f8 * f8x19;
    long h7 = f0x2 * f7 + f1x2 * f6 + f2x2 * f5 + f3x2 * f4 + f8 * f9x38;
    long h8 = f0x2 * f8 + f1x2 * f7x2 + f2x2 * f6 + f3x2 * f5x2 + f4 * f4 + f9 * f9x38;
    long h9 = f0x2 * f9 + f1x2 * f8 + f2x2 * f7 + f3x2 * f6 + f4x2 * f5;
    carry(out, h0, h1, h2, h3, h4, h5, h6, h7, h8, h9);
  }

  /** Brings limbs of any size below 2^62 back to their widths (rounded, so signed). */
  static void carry(long[] f) {
    carry(f, f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9]);
  }

  private static void carry(
      long[] out,
      long h0,
      long h1,
      long h2,
      long h3,
      long h4,
      long h5,
      long h6,
      long h7,
      long h8,
      long h9) {
    long c;
    c = (h0 + (1L << 25)) >> 26;
    h1 += c;
    h0 -= c << 26;
    c = (h1 + (1L << 24)) >> 25;
    h2 += c;
    h1 -= c << 25;
    c = (h2 + (1L << 25)) >> 26;
    h3 += c;
    h2 -= c << 26;
    c = (h3 + (1L << 24)) >> 25;
    h4 += c;
    h3 -= c << 25;
    c = (h4 + (1L << 25)) >> 26;
    h5 += c;
    h4 -= c << 26;
    c = (h5 + (1L << 24)) >> 25;
    h6 += c;
    h5 -= c << 25;
    c = (h6 + (1L << 25)) >> 26;
    h7 += c;
    h6 -= c << 26;
    c = (h7 + (1L << 24)) >> 25;
    h8 += c;
    h7 -= c << 25;
    c = (h8 + (1L << 25)) >> 26;
    h9 += c;
    h8 -= c << 26;
    c = (h9 + (1L << 24)) >> 25;
    h0 += 19 * c;
    h9 -= c << 25;
    c = (h0 + (1L << 25)) >> 26;
    h1 += c;
    h0 -= c << 26;
    out[0] = h0;
    out[1] = h1;
    out[2] = h2;
    out[3] = h3;
    out[4] = h4;
    out[5] = h5;
    out[6] = h6;
    out[7] = h7;
    out[8] = h8;
    out[9] = h9;
  }

  /** out = f^(2^n), n >= 1. */
  private static void squareTimes(long[] out, long[] f, int n) {
    square(out, f);
    for (int i = 1; i < n; i++) {
      square(out, out);
    }
  }

  /** f^(2^250 - 1), the common start of {@link #invert} and {@link #powPMinus5Over8}. */
  private static long[] pow2To250Minus1(long[] f, long[] f11Out) {
    long[] t = zero();
    long[] f2 = zero();
    square(f2, f); // f^2
    long[] f9 = zero();
    squareTimes(t, f2, 2); // f^8
    mul(f9, t, f); // f^9
    mul(f11Out, f9, f2); // f^11
    long[] e5 = zero();
    square(t, f11Out); // f^22
    mul(e5, t, f9); // f^(2^5 - 1)
    long[] e10 = zero();
    squareTimes(t, e5, 5);
    mul(e10, t, e5); // f^(2^10 - 1)
    long[] e20 = zero();
    squareTimes(t, e10, 10);
    mul(e20, t, e10); // f^(2^20 - 1)
    long[] e40 = zero();
    squareTimes(t, e20, 20);
    mul(e40, t, e20); // f^(2^40 - 1)
    long[] e50 = zero();
    squareTimes(t, e40, 10);
    mul(e50, t, e10); // f^(2^50 - 1)
    long[] e100 = zero();
    squareTimes(t, e50, 50);
    mul(e100, t, e50); // f^(2^100 - 1)
    long[] e200 = zero();
    squareTimes(t, e100, 100);
    mul(e200, t, e100); // f^(2^200 - 1)
    long[] e250 = zero();
    squareTimes(t, e200, 50);
    mul(e250, t, e50); // f^(2^250 - 1)
    return e250;
  }

  /** out = 1/f (f^(p-2) = f^(2^255 - 21)); 0 gives 0. */
  static void invert(long[] out, long[] f) {
    long[] f11 = zero();
    long[] e250 = pow2To250Minus1(f, f11);
    squareTimes(e250, e250, 5); // f^(2^255 - 32)
    mul(out, e250, f11);
  }

  /** out = f^((p-5)/8) = f^(2^252 - 3), the core of a square root mod p. */
  static void powPMinus5Over8(long[] out, long[] f) {
    long[] f11 = zero();
    long[] e250 = pow2To250Minus1(f, f11);
    squareTimes(e250, e250, 2); // f^(2^252 - 4)
    mul(out, e250, f);
  }

  /**
   * The element of 32 little-endian bytes from {@code offset}, the top bit (bit 255) ignored. A
   * value from p to 2^255 - 1 is taken as is (it stands for value - p); callers that must refuse it
   * check first with {@link #isCanonical}.
   */
  static long[] fromBytes(byte[] bytes, int offset) {
    long[] words = new long[4];
    for (int i = 0; i < 32; i++) {
      words[i >> 3] |= (bytes[offset + i] & 0xFFL) << ((i & 7) << 3);
    }
    words[3] &= Long.MAX_VALUE;
    long[] r = new long[LIMBS];
    for (int i = 0; i < LIMBS; i++) {
      int word = OFFSET[i] >> 6;
      int shift = OFFSET[i] & 63;
      long v = words[word] >>> shift;
      if (shift + WIDTH[i] > 64) {
        v |= words[word + 1] << (64 - shift);
      }
      r[i] = v & ((1L << WIDTH[i]) - 1);
    }
    return r;
  }

  /** Whether 32 little-endian bytes, top bit ignored, are a number below p. */
  static boolean isCanonical(byte[] bytes, int offset) {
    if ((bytes[offset + 31] & 0x7F) != 0x7F) {
      return true;
    }
    for (int i = 30; i >= 1; i--) {
      if (bytes[offset + i] != (byte) 0xFF) {
        return true;
      }
    }
    return (bytes[offset] & 0xFF) < 0xED; // p's lowest byte: 2^8 - 19
  }

  /** The 32 little-endian bytes of f fully reduced to [0, p); the top bit is 0. */
  static byte[] toBytes(long[] f) {
    long[] h = reduced(f);
    long[] words = new long[4];
    for (int i = 0; i < LIMBS; i++) {
      int word = OFFSET[i] >> 6;
      int shift = OFFSET[i] & 63;
      words[word] |= h[i] << shift;
      if (shift + WIDTH[i] > 64) {
        words[word + 1] |= h[i] >>> (64 - shift);
      }
    }
    byte[] out = new byte[32];
    for (int i = 0; i < 32; i++) {
      out[i] = (byte) (words[i >> 3] >>> ((i & 7) << 3));
    }
    return out;
  }

  /** The limbs of f's value in [0, p), each in [0, 2^width). */
  private static long[] reduced(long[] f) {
    long[] h = f.clone();
    // Floor carries make limbs 1..9 non-negative; each round moves c9 * p, so a few rounds
    // bring the value into [0, 2^255).
    long c9;
    do {
      c9 = floorCarry(h);
      h[0] += 19 * c9;
    } while (c9 != 0 || h[0] < 0 || h[0] >= (1L << 26));
    // value >= p exactly when value + 19 reaches 2^255.
    long[] plus19 = h.clone();
    plus19[0] += 19;
    if (floorCarry(plus19) != 0) {
      return plus19; // value + 19 - 2^255 = value - p
    }
    return h;
  }

  /** Carries limb i into i + 1 with floor division; returns the carry out of limb 9. */
  private static long floorCarry(long[] h) {
    for (int i = 0; i < LIMBS - 1; i++) {
      long c = h[i] >> WIDTH[i];
      h[i] -= c << WIDTH[i];
      h[i + 1] += c;
    }
    long c = h[9] >> 25;
    h[9] -= c << 25;
    return c;
  }

  /** Whether f is odd once reduced: the "negative" x of RFC 8032's encoding. */
  static boolean isOdd(long[] f) {
    return (toBytes(f)[0] & 1) == 1;
  }

  static boolean isZero(long[] f) {
    byte[] b = toBytes(f);
    for (byte x : b) {
      if (x != 0) {
        return false;
      }
    }
    return true;
  }

  static boolean equal(long[] f, long[] g) {
    long[] d = zero();
    sub(d, f, g);
    return isZero(d);
  }
}
