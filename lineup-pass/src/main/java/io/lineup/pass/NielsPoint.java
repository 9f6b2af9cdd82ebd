package io.lineup.pass;

/**
 * An affine point kept as (y + x, y - x, 2 d x y), the form in which adding it to an {@link
 * EdwardsPoint} takes seven multiplications. Immutable once made.
 */
final class NielsPoint {
  final long[] yPlusX;
  final long[] yMinusX;
  final long[] xy2d;

  /** The Niels form of the affine point (x, y). */
  NielsPoint(long[] x, long[] y) {
    yPlusX = Field25519.zero();
    Field25519.add(yPlusX, y, x);
    Field25519.carry(yPlusX);
    yMinusX = Field25519.zero();
    Field25519.sub(yMinusX, y, x);
    Field25519.carry(yMinusX);
    xy2d = Field25519.zero();
    Field25519.mul(xy2d, x, y);
    Field25519.mul(xy2d, xy2d, EdwardsPoint.D2);
  }
}
