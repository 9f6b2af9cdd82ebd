package io.lineup.pass;

import java.math.BigInteger;

/**
 * Arithmetic modulo p = 2^255 - 19 on elements held as {@code long[5]}: five signed limbs of 51
 * bits (limb i weighs 2^(51 i)). A product of two limbs needs up to 110 bits; it is taken as its
 * low 64 bits and {@link Math#multiplyHigh} and split at bit 51 at once, so that sums of five such
 * halves fit in a long.
 *
 * <p>Bounds (why no overflow): {@link #mul} and {@link #square} accept limbs of magnitude below
 * 2^53 and give limbs below 2^51 + 2^14 in magnitude; an {@link #add} or {@link #sub} of two such
 * elements stays below 2^52, and one more below 2^53. The point formulas keep to that. Every output
 * array may be one of the inputs.
 *
 * <p>Not constant-time: it only ever handles public data (keys, signatures, messages).
 */
final class Field25519 {
  /** Number of limbs of an element. */
  static final int LIMBS = 5;

  static final BigInteger P = BigInteger.ONE.shiftLeft(255).subtract(BigInteger.valueOf(19));

  private static final int BITS = 51;
  private static final long MASK = (1L << BITS) - 1;

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
   * out = f * g. Limb pair (i, j) lands in limb i + j, times 19 when i + j is 5 or more (2^255 = 19
   * mod p). Each product is split into its bits below 51 (summed into {@code l}) and above (summed
   * into {@code h}, which belongs one limb up).
   */
  static void mul(long[] out, long[] f, long[] g) {
    mul(out, f, g, 0);
  }

  /** out = f * (the element at {@code gOffset} of g): g may be a table of many elements. */
  static void mul(long[] out, long[] f, long[] g, int gOffset) {
    long f0 = f[0], f1 = f[1], f2 = f[2], f3 = f[3], f4 = f[4];
    long g0 = g[gOffset], g1 = g[gOffset + 1], g2 = g[gOffset + 2];
    long g3 = g[gOffset + 3], g4 = g[gOffset + 4];
    long g1x19 = 19 * g1, g2x19 = 19 * g2, g3x19 = 19 * g3, g4x19 = 19 * g4;
    long lo, l0, l1, l2, l3, l4, h0, h1, h2, h3, h4;
    // limb 0: f0 g0 + 19 (f1 g4 + f2 g3 + f3 g2 + f4 g1)
    lo = f0 * g0;
    l0 = lo & MASK;
    h0 = (Math.multiplyHigh(f0, g0) << 13) | (lo >>> 51);
    lo = f1 * g4x19;
    l0 += lo & MASK;
    h0 += (Math.multiplyHigh(f1, g4x19) << 13) | (lo >>> 51);
    lo = f2 * g3x19;
    l0 += lo & MASK;
    h0 += (Math.multiplyHigh(f2, g3x19) << 13) | (lo >>> 51);
    lo = f3 * g2x19;
    l0 += lo & MASK;
    h0 += (Math.multiplyHigh(f3, g2x19) << 13) | (lo >>> 51);
    lo = f4 * g1x19;
    l0 += lo & MASK;
    h0 += (Math.multiplyHigh(f4, g1x19) << 13) | (lo >>> 51);
    // limb 1: f0 g1 + f1 g0 + 19 (f2 g4 + f3 g3 + f4 g2)
    lo = f0 * g1;
    l1 = lo & MASK;
    h1 = (Math.multiplyHigh(f0, g1) << 13) | (lo >>> 51);
    lo = f1 * g0;
    l1 += lo & MASK;
    h1 += (Math.multiplyHigh(f1, g0) << 13) | (lo >>> 51);
    lo = f2 * g4x19;
    l1 += lo & MASK;
    h1 += (Math.multiplyHigh(f2, g4x19) << 13) | (lo >>> 51);
    lo = f3 * g3x19;
    l1 += lo & MASK;
    h1 += (Math.multiplyHigh(f3, g3x19) << 13) | (lo >>> 51);
    lo = f4 * g2x19;
    l1 += lo & MASK;
    h1 += (Math.multiplyHigh(f4, g2x19) << 13) | (lo >>> 51);
    // limb 2: f0 g2 + f1 g1 + f2 g0 + 19 (f3 g4 + f4 g3)
    lo = f0 * g2;
    l2 = lo & MASK;
    h2 = (Math.multiplyHigh(f0, g2) << 13) | (lo >>> 51);
    lo = f1 * g1;
    l2 += lo & MASK;
    h2 += (Math.multiplyHigh(f1, g1) << 13) | (lo >>> 51);
    lo = f2 * g0;
    l2 += lo & MASK;
    h2 += (Math.multiplyHigh(f2, g0) << 13) | (lo >>> 51);
    lo = f3 * g4x19;
    l2 += lo & MASK;
    h2 += (Math.multiplyHigh(f3, g4x19) << 13) | (lo >>> 51);
    lo = f4 * g3x19;
    l2 += lo & MASK;
    h2 += (Math.multiplyHigh(f4, g3x19) << 13) | (lo >>> 51);
    // limb 3: f0 g3 + f1 g2 + f2 g1 + f3 g0 + 19 f4 g4
    lo = f0 * g3;
    l3 = lo & MASK;
    h3 = (Math.multiplyHigh(f0, g3) << 13) | (lo >>> 51);
    lo = f1 * g2;
    l3 += lo & MASK;
    h3 += (Math.multiplyHigh(f1, g2) << 13) | (lo >>> 51);
    lo = f2 * g1;
    l3 += lo & MASK;
    h3 += (Math.multiplyHigh(f2, g1) << 13) | (lo >>> 51);
    lo = f3 * g0;
    l3 += lo & MASK;
    h3 += (Math.multiplyHigh(f3, g0) << 13) | (lo >>> 51);
    lo = f4 * g4x19;
    l3 += lo & MASK;
    h3 += (Math.multiplyHigh(f4, g4x19) << 13) | (lo >>> 51);
    // limb 4: f0 g4 + f1 g3 + f2 g2 + f3 g1 + f4 g0 (no wrap, so 19 h4 below fits)
    lo = f0 * g4;
    l4 = lo & MASK;
    h4 = (Math.multiplyHigh(f0, g4) << 13) | (lo >>> 51);
    lo = f1 * g3;
    l4 += lo & MASK;
    h4 += (Math.multiplyHigh(f1, g3) << 13) | (lo >>> 51);
    lo = f2 * g2;
    l4 += lo & MASK;
    h4 += (Math.multiplyHigh(f2, g2) << 13) | (lo >>> 51);
    lo = f3 * g1;
    l4 += lo & MASK;
    h4 += (Math.multiplyHigh(f3, g1) << 13) | (lo >>> 51);
    lo = f4 * g0;
    l4 += lo & MASK;
    h4 += (Math.multiplyHigh(f4, g0) << 13) | (lo >>> 51);
    finish(out, l0 + 19 * h4, l1 + h0, l2 + h1, l3 + h2, l4 + h3);
  }

  /** out = f^2: the products of {@link #mul} with f = g, each pair (i, j), i != j, taken once. */
  static void square(long[] out, long[] f) {
    long f0 = f[0], f1 = f[1], f2 = f[2], f3 = f[3], f4 = f[4];
    long f0x2 = 2 * f0, f1x2 = 2 * f1;
    long f3x19 = 19 * f3, f3x38 = 38 * f3, f4x19 = 19 * f4, f4x38 = 38 * f4;
    long lo, l0, l1, l2, l3, l4, h0, h1, h2, h3, h4;
    // limb 0: f0^2 + 38 (f1 f4 + f2 f3)
    lo = f0 * f0;
    l0 = lo & MASK;
    h0 = (Math.multiplyHigh(f0, f0) << 13) | (lo >>> 51);
    lo = f1 * f4x38;
    l0 += lo & MASK;
    h0 += (Math.multiplyHigh(f1, f4x38) << 13) | (lo >>> 51);
    lo = f2 * f3x38;
    l0 += lo & MASK;
    h0 += (Math.multiplyHigh(f2, f3x38) << 13) | (lo >>> 51);
    // limb 1: 2 f0 f1 + 38 f2 f4 + 19 f3^2
    lo = f0x2 * f1;
    l1 = lo & MASK;
    h1 = (Math.multiplyHigh(f0x2, f1) << 13) | (lo >>> 51);
    lo = f2 * f4x38;
    l1 += lo & MASK;
    h1 += (Math.multiplyHigh(f2, f4x38) << 13) | (lo >>> 51);
    lo = f3 * f3x19;
    l1 += lo & MASK;
    h1 += (Math.multiplyHigh(f3, f3x19) << 13) | (lo >>> 51);
    // limb 2: 2 f0 f2 + f1^2 + 38 f3 f4
    lo = f0x2 * f2;
    l2 = lo & MASK;
    h2 = (Math.multiplyHigh(f0x2, f2) << 13) | (lo >>> 51);
    lo = f1 * f1;
    l2 += lo & MASK;
    h2 += (Math.multiplyHigh(f1, f1) << 13) | (lo >>> 51);
    lo = f3 * f4x38;
    l2 += lo & MASK;
    h2 += (Math.multiplyHigh(f3, f4x38) << 13) | (lo >>> 51);
    // limb 3: 2 f0 f3 + 2 f1 f2 + 19 f4^2
    lo = f0x2 * f3;
    l3 = lo & MASK;
    h3 = (Math.multiplyHigh(f0x2, f3) << 13) | (lo >>> 51);
    lo = f1x2 * f2;
    l3 += lo & MASK;
    h3 += (Math.multiplyHigh(f1x2, f2) << 13) | (lo >>> 51);
    lo = f4 * f4x19;
    l3 += lo & MASK;
    h3 += (Math.multiplyHigh(f4, f4x19) << 13) | (lo >>> 51);
    // limb 4: 2 f0 f4 + 2 f1 f3 + f2^2
    lo = f0x2 * f4;
    l4 = lo & MASK;
    h4 = (Math.multiplyHigh(f0x2, f4) << 13) | (lo >>> 51);
    lo = f1x2 * f3;
    l4 += lo & MASK;
    h4 += (Math.multiplyHigh(f1x2, f3) << 13) | (lo >>> 51);
    lo = f2 * f2;
    l4 += lo & MASK;
    h4 += (Math.multiplyHigh(f2, f2) << 13) | (lo >>> 51);
    finish(out, l0 + 19 * h4, l1 + h0, l2 + h1, l3 + h2, l4 + h3);
  }

  /** Brings limbs of magnitude below 2^58 back to 51 bits (limbs 1 and 3 up to 2^14 over). */
  static void carry(long[] f) {
    finish(f, f[0], f[1], f[2], f[3], f[4]);
  }

  /**
   * Carries r0..r4 (each below 2^63 in magnitude) into out, limb 4 wrapping round as 19. Two
   * chains, from limb 0 and from limb 3, run side by side to shorten the dependent steps.
   */
  private static void finish(long[] out, long r0, long r1, long r2, long r3, long r4) {
    long c0 = r0 >> 51;
    long c3 = r3 >> 51;
    r0 &= MASK;
    r3 &= MASK;
    r1 += c0;
    r4 += c3;
    long c1 = r1 >> 51;
    long c4 = r4 >> 51;
    r1 &= MASK;
    r4 &= MASK;
    r2 += c1;
    r0 += 19 * c4;
    long c2 = r2 >> 51;
    c0 = r0 >> 51;
    r2 &= MASK;
    r0 &= MASK;
    r3 += c2;
    r1 += c0;
    out[0] = r0;
    out[1] = r1;
    out[2] = r2;
    out[3] = r3;
    out[4] = r4;
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
      int offset51 = BITS * i;
      int word = offset51 >> 6;
      int shift = offset51 & 63;
      long v = words[word] >>> shift;
      if (shift + BITS > 64) {
        v |= words[word + 1] << (64 - shift);
      }
      r[i] = v & MASK;
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
      int offset51 = BITS * i;
      int word = offset51 >> 6;
      int shift = offset51 & 63;
      words[word] |= h[i] << shift;
      if (shift + BITS > 64 && word + 1 < 4) {
        words[word + 1] |= h[i] >>> (64 - shift);
      }
    }
    byte[] out = new byte[32];
    for (int i = 0; i < 32; i++) {
      out[i] = (byte) (words[i >> 3] >>> ((i & 7) << 3));
    }
    return out;
  }

  /** The limbs of f's value in [0, p), each in [0, 2^51). */
  private static long[] reduced(long[] f) {
    long[] h = f.clone();
    // Floor carries make limbs 1..4 non-negative; each round moves c9 * p, so a few rounds
    // bring the value into [0, 2^255).
    long c9;
    do {
      c9 = floorCarry(h);
      h[0] += 19 * c9;
    } while (c9 != 0);
    // value >= p exactly when value + 19 reaches 2^255.
    long[] plus19 = h.clone();
    plus19[0] += 19;
    if (floorCarry(plus19) != 0) {
      return plus19; // value + 19 - 2^255 = value - p
    }
    return h;
  }

  /** Carries limb i into i + 1 with floor division; returns the carry out of the top limb. */
  private static long floorCarry(long[] h) {
    for (int i = 0; i < LIMBS - 1; i++) {
      long c = h[i] >> BITS;
      h[i] &= MASK;
      h[i + 1] += c;
    }
    long c = h[LIMBS - 1] >> BITS;
    h[LIMBS - 1] &= MASK;
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
