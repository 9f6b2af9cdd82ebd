package io.lineup.pass;

/**
 * The multiples of one point P that a fixed-base scalar multiplication adds up: row r holds 1..8
 * times 256^r P, for r = 0..31, in Niels form. With a scalar written as 64 signed base-16 digits
 * e_i in [-8, 8], [e] P is the sum over odd i of the rows' entries, doubled four times, plus the
 * sum over even i: 64 additions and 4 doublings, no other doubling. About 74 KB; immutable.
 */
final class MultiplesTable {
  static final int ROWS = 32;
  static final int PER_ROW = 8;

  private final NielsPoint[] entries;

  /** The table of P. Costs about 300 point operations and one inversion. */
  MultiplesTable(EdwardsPoint p) {
    int n = ROWS * PER_ROW;
    EdwardsPoint[] points = new EdwardsPoint[n];
    EdwardsPoint base = new EdwardsPoint(p);
    for (int r = 0; r < ROWS; r++) {
      EdwardsPoint multiple = new EdwardsPoint(base);
      points[r * PER_ROW] = new EdwardsPoint(multiple);
      for (int j = 1; j < PER_ROW; j++) {
        multiple.add(base);
        points[r * PER_ROW + j] = new EdwardsPoint(multiple);
      }
      // multiple = 8 base; five doublings make 256 base, the next row's base.
      for (int k = 0; k < 5; k++) {
        multiple.doubleInPlace();
      }
      base = multiple;
    }
    entries = toNiels(points);
  }

  /** Niels forms of the points, with one inversion for all (Montgomery's trick). */
  private static NielsPoint[] toNiels(EdwardsPoint[] points) {
    int n = points.length;
    long[][] prefix = new long[n][];
    long[] acc = Field25519.one();
    for (int i = 0; i < n; i++) {
      Field25519.mul(acc, acc, points[i].z);
      prefix[i] = Field25519.copy(acc); // z_0 ... z_i
    }
    long[] inv = Field25519.zero();
    Field25519.invert(inv, acc); // 1 / (z_0 ... z_{n-1})
    NielsPoint[] out = new NielsPoint[n];
    long[] zInv = Field25519.zero();
    long[] x = Field25519.zero();
    long[] y = Field25519.zero();
    for (int i = n - 1; i >= 0; i--) {
      if (i > 0) {
        Field25519.mul(zInv, inv, prefix[i - 1]);
        Field25519.mul(inv, inv, points[i].z); // 1 / (z_0 ... z_{i-1})
      } else {
        Field25519.set(zInv, inv);
      }
      Field25519.mul(x, points[i].x, zInv);
      Field25519.mul(y, points[i].y, zInv);
      out[i] = new NielsPoint(x, y);
    }
    return out;
  }

  /** |digit| 256^row P, for a digit in 1..8. */
  NielsPoint get(int row, int digit) {
    return entries[row * PER_ROW + digit - 1];
  }
}
