package io.lineup.pass;

import java.math.BigInteger;

/**
 * A point of the Ed25519 curve -x^2 + y^2 = 1 + d x^2 y^2 in extended coordinates (X : Y : Z : T)
 * with x = X/Z, y = Y/Z and x y = T/Z (Hisil, Wong, Carter and Dawson, 2008). Mutable, so that a
 * scalar multiplication reuses one object; not thread-safe. The addition formulas are complete on
 * this curve (a = -1 is a square and d is not), so they hold for every pair of points, the identity
 * and small-order points included.
 */
final class EdwardsPoint {
  /** d = -121665/121666 mod p, the curve constant. */
  static final long[] D;

  /** 2d, as the addition formulas use it. */
  static final long[] D2;

  /** A square root of -1 mod p: 2^((p-1)/4). */
  static final long[] SQRT_MINUS_ONE;

  static {
    BigInteger p = Field25519.P;
    BigInteger d =
        BigInteger.valueOf(-121665).multiply(BigInteger.valueOf(121666).modInverse(p)).mod(p);
    D = Field25519.of(d);
    D2 = Field25519.of(d.shiftLeft(1));
    SQRT_MINUS_ONE =
        Field25519.of(BigInteger.TWO.modPow(p.subtract(BigInteger.ONE).shiftRight(2), p));
  }

  final long[] x = Field25519.zero();
  final long[] y = Field25519.one();
  final long[] z = Field25519.one();
  final long[] t = Field25519.zero();

  // Scratch space of the formulas, kept so that additions allocate nothing.
  private final long[] t0 = Field25519.zero();
  private final long[] t1 = Field25519.zero();
  private final long[] t2 = Field25519.zero();
  private final long[] t3 = Field25519.zero();
  private final long[] t4 = Field25519.zero();

  /** The identity (0, 1). */
  EdwardsPoint() {}

  EdwardsPoint(EdwardsPoint other) {
    set(other);
  }

  void set(EdwardsPoint other) {
    Field25519.set(x, other.x);
    Field25519.set(y, other.y);
    Field25519.set(z, other.z);
    Field25519.set(t, other.t);
  }

  /**
   * The point of a 32-byte encoding (RFC 8032 section 5.1.3), or null when the encoding is refused:
   * y not below p, no x for that y (not on the curve), or x = 0 with the sign bit set. These are
   * the refusals of the JDK's Ed25519.
   */
  static EdwardsPoint decode(byte[] encoded, int offset) {
    if (!Field25519.isCanonical(encoded, offset)) {
      return null;
    }
    boolean xOdd = (encoded[offset + 31] & 0x80) != 0;
    long[] y = Field25519.fromBytes(encoded, offset);
    long[] yy = Field25519.zero();
    Field25519.square(yy, y);
    long[] u = Field25519.zero();
    Field25519.sub(u, yy, Field25519.one()); // u = y^2 - 1
    Field25519.carry(u);
    long[] v = Field25519.zero();
    Field25519.mul(v, yy, D);
    Field25519.add(v, v, Field25519.one()); // v = d y^2 + 1
    Field25519.carry(v);
    // x = u v^3 (u v^7)^((p-5)/8), a square root of u/v when there is one, up to sqrt(-1).
    long[] v3 = Field25519.zero();
    Field25519.square(v3, v);
    Field25519.mul(v3, v3, v);
    long[] v7 = Field25519.zero();
    Field25519.square(v7, v3);
    Field25519.mul(v7, v7, v);
    long[] x = Field25519.zero();
    Field25519.mul(x, u, v7);
    Field25519.powPMinus5Over8(x, x);
    Field25519.mul(x, x, v3);
    Field25519.mul(x, x, u);
    long[] vxx = Field25519.zero();
    Field25519.square(vxx, x);
    Field25519.mul(vxx, vxx, v);
    if (!Field25519.equal(vxx, u)) {
      long[] minusU = Field25519.zero();
      Field25519.negate(minusU, u);
      if (!Field25519.equal(vxx, minusU)) {
        return null;
      }
      Field25519.mul(x, x, SQRT_MINUS_ONE);
    }
    if (Field25519.isZero(x) && xOdd) {
      return null;
    }
    if (Field25519.isOdd(x) != xOdd) {
      Field25519.negate(x, x);
    }
    EdwardsPoint point = new EdwardsPoint();
    Field25519.set(point.x, x);
    Field25519.set(point.y, y);
    Field25519.mul(point.t, x, y);
    return point;
  }

  /** The 32-byte encoding (RFC 8032 section 5.1.2): y, with x's parity in the top bit. */
  byte[] encode() {
    long[] zInv = Field25519.zero();
    Field25519.invert(zInv, z);
    long[] ax = Field25519.zero();
    Field25519.mul(ax, x, zInv);
    long[] ay = Field25519.zero();
    Field25519.mul(ay, y, zInv);
    byte[] out = Field25519.toBytes(ay);
    if (Field25519.isOdd(ax)) {
      out[31] |= (byte) 0x80;
    }
    return out;
  }

  /**
   * this = this + q, or this - q when {@code subtract}, for an affine q in Niels form (y + x, y -
   * x, 2 d x y) at {@code offset} of a {@link MultiplesTable}'s array.
   */
  void add(long[] table, int offset, boolean subtract) {
    // -q = (-x, y) swaps y + x and y - x and negates 2 d x y.
    int plus = offset + (subtract ? MultiplesTable.Y_MINUS_X : MultiplesTable.Y_PLUS_X);
    int minus = offset + (subtract ? MultiplesTable.Y_PLUS_X : MultiplesTable.Y_MINUS_X);
    Field25519.sub(t0, y, x);
    Field25519.mul(t0, t0, table, minus); // A = (Y - X)(y2 - x2)
    Field25519.add(t1, y, x);
    Field25519.mul(t1, t1, table, plus); // B = (Y + X)(y2 + x2)
    Field25519.mul(t2, t, table, offset + MultiplesTable.XY2D); // C = T 2d x2 y2 (negated for -q)
    Field25519.add(t3, z, z); // D = 2Z
    Field25519.sub(t4, t1, t0); // E = B - A
    Field25519.add(t1, t1, t0); // H = B + A
    if (subtract) {
      Field25519.add(t0, t3, t2); // F = D - (-C)
      Field25519.sub(t3, t3, t2); // G = D + (-C)
    } else {
      Field25519.sub(t0, t3, t2); // F = D - C
      Field25519.add(t3, t3, t2); // G = D + C
    }
    finish(t4, t0, t3, t1);
  }

  /** this = this + q, both projective. */
  void add(EdwardsPoint q) {
    Field25519.sub(t0, y, x);
    Field25519.sub(t1, q.y, q.x);
    Field25519.mul(t0, t0, t1); // A = (Y1 - X1)(Y2 - X2)
    Field25519.add(t1, y, x);
    Field25519.add(t2, q.y, q.x);
    Field25519.mul(t1, t1, t2); // B = (Y1 + X1)(Y2 + X2)
    Field25519.mul(t2, t, q.t);
    Field25519.mul(t2, t2, D2); // C = T1 2d T2
    Field25519.mul(t3, z, q.z);
    Field25519.add(t3, t3, t3); // D = 2 Z1 Z2
    Field25519.sub(t4, t1, t0); // E = B - A
    Field25519.add(t1, t1, t0); // H = B + A
    Field25519.sub(t0, t3, t2); // F = D - C
    Field25519.add(t3, t3, t2); // G = D + C
    finish(t4, t0, t3, t1);
  }

  /** this = 2 this (a = -1 doubling: A = X^2, B = Y^2, C = 2Z^2, E = (X+Y)^2 - A - B). */
  void doubleInPlace() {
    Field25519.square(t0, x); // A
    Field25519.square(t1, y); // B
    Field25519.square(t2, z);
    Field25519.add(t2, t2, t2); // C
    Field25519.add(t3, x, y);
    Field25519.square(t3, t3);
    Field25519.sub(t3, t3, t0);
    Field25519.sub(t3, t3, t1); // E
    Field25519.sub(t4, t1, t0); // G = B - A (= a A + B)
    Field25519.sub(t2, t4, t2); // F = G - C
    Field25519.add(t1, t0, t1);
    Field25519.negate(t1, t1); // H = -A - B (= a A - B)
    finish(t3, t2, t4, t1);
  }

  /** X = E F, Y = G H, T = E H, Z = F G: the common end of the formulas. */
  private void finish(long[] e, long[] f, long[] g, long[] h) {
    Field25519.mul(x, e, f);
    Field25519.mul(y, g, h);
    Field25519.mul(t, e, h);
    Field25519.mul(z, f, g);
  }
}
