package io.lineup.pass;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Slow, plain Ed25519 curve arithmetic on affine BigInteger coordinates, straight from RFC 8032's
 * definitions, to build test inputs (small-order points, mixed-order keys, crafted signatures)
 * independently of the code under test.
 */
final class ReferenceCurve {
  static final BigInteger P = BigInteger.ONE.shiftLeft(255).subtract(BigInteger.valueOf(19));
  static final BigInteger L =
      BigInteger.ONE.shiftLeft(252).add(new BigInteger("27742317777372353535851937790883648493"));
  static final BigInteger D =
      BigInteger.valueOf(-121665).multiply(BigInteger.valueOf(121666).modInverse(P)).mod(P);
  static final BigInteger SQRT_M1 =
      BigInteger.TWO.modPow(P.subtract(BigInteger.ONE).shiftRight(2), P);

  record Point(BigInteger x, BigInteger y) {}

  static final Point IDENTITY = new Point(BigInteger.ZERO, BigInteger.ONE);
  static final Point B =
      decode(le(BigInteger.valueOf(4).multiply(BigInteger.valueOf(5).modInverse(P)).mod(P)));

  private ReferenceCurve() {}

  /** x3 = (x1 y2 + x2 y1) / (1 + d x1 x2 y1 y2), y3 = (y1 y2 + x1 x2) / (1 - d x1 x2 y1 y2). */
  static Point add(Point a, Point b) {
    BigInteger dxxyy = D.multiply(a.x).multiply(b.x).multiply(a.y).multiply(b.y).mod(P);
    BigInteger x =
        a.x.multiply(b.y).add(b.x.multiply(a.y)).multiply(BigInteger.ONE.add(dxxyy).modInverse(P));
    BigInteger y =
        a.y
            .multiply(b.y)
            .add(a.x.multiply(b.x))
            .multiply(BigInteger.ONE.subtract(dxxyy).mod(P).modInverse(P));
    return new Point(x.mod(P), y.mod(P));
  }

  static Point negate(Point a) {
    return new Point(a.x.negate().mod(P), a.y);
  }

  static Point multiply(BigInteger k, Point p) {
    Point result = IDENTITY;
    Point addend = p;
    for (int i = 0; i < k.bitLength(); i++) {
      if (k.testBit(i)) {
        result = add(result, addend);
      }
      addend = add(addend, addend);
    }
    return result;
  }

  static byte[] encode(Point p) {
    byte[] out = le(p.y);
    if (p.x.testBit(0)) {
      out[31] |= (byte) 0x80;
    }
    return out;
  }

  /** RFC 8032 5.1.3, or null when the bytes are no valid encoding. */
  static Point decode(byte[] bytes) {
    byte[] copy = bytes.clone();
    boolean sign = (copy[31] & 0x80) != 0;
    copy[31] &= 0x7F;
    BigInteger y = fromLe(copy);
    if (y.compareTo(P) >= 0) {
      return null;
    }
    BigInteger yy = y.multiply(y);
    BigInteger xx =
        yy.subtract(BigInteger.ONE)
            .multiply(D.multiply(yy).add(BigInteger.ONE).modInverse(P))
            .mod(P);
    if (xx.signum() == 0) {
      return sign ? null : new Point(BigInteger.ZERO, y);
    }
    BigInteger x = xx.modPow(P.add(BigInteger.valueOf(3)).shiftRight(3), P);
    if (!x.multiply(x).subtract(xx).mod(P).equals(BigInteger.ZERO)) {
      x = x.multiply(SQRT_M1).mod(P);
    }
    if (!x.multiply(x).subtract(xx).mod(P).equals(BigInteger.ZERO)) {
      return null;
    }
    if (x.testBit(0) != sign) {
      x = P.subtract(x);
    }
    return new Point(x, y);
  }

  static byte[] le(BigInteger value) {
    byte[] big = value.toByteArray();
    byte[] out = new byte[32];
    for (int i = 0; i < 32 && i < big.length; i++) {
      out[i] = big[big.length - 1 - i];
    }
    return out;
  }

  static BigInteger fromLe(byte[] bytes) {
    byte[] big = new byte[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      big[i] = bytes[bytes.length - 1 - i];
    }
    return new BigInteger(1, big);
  }

  /**
   * The eight points of order dividing 8: multiples of [L]Q for a point Q with an order-8 part.
   *
   * @param randomEncoding gives 32 random bytes, tried as encodings until one decodes to such a Q
   */
  static List<Point> torsionPoints(Supplier<byte[]> randomEncoding) {
    while (true) {
      Point q = decode(randomEncoding.get());
      if (q == null) {
        continue;
      }
      Point t = multiply(L, q);
      if (multiply(BigInteger.valueOf(4), t).equals(IDENTITY)) {
        continue;
      }
      List<Point> points = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        points.add(multiply(BigInteger.valueOf(i), t));
      }
      return points;
    }
  }
}
