package io.lineup.pass;

/**
 * The multiples of one point P that a fixed-base scalar multiplication adds up. The scalar is
 * written as signed digits e_i of {@code windowBits} bits (each in [-2^(w-1), 2^(w-1)]), so [e]P =
 * sum of e_i 2^(w i) P. The positions are split into {@code passes} classes by i mod passes: row r
 * holds 1..2^(w-1) times 2^(w passes r) P, and pass m adds the digits at positions r passes + m
 * from row r; between passes the sum is doubled w times. One pass needs no doubling but the largest
 * table; two passes halve the table for w doublings. Each entry is an affine point in Niels form (y
 * + x, y - x, 2 d x y), which an addition takes with seven multiplications. Immutable.
 */
final class MultiplesTable {
  /** Longs per entry: y + x, y - x and 2 d x y, one after the other. */
  static final int ENTRY = 3 * Field25519.LIMBS;

  static final int Y_PLUS_X = 0;
  static final int Y_MINUS_X = Field25519.LIMBS;
  static final int XY2D = 2 * Field25519.LIMBS;

  private final int windowBits;
  private final int passes;
  private final int perRow;
  private final int positions;
  // All entries in one array: a lookup reads two cache lines, not four objects.
  private final long[] entries;

  /**
   * The table of P.
   *
   * @param windowBits bits per digit, 4 to 8
   * @param passes classes of positions (1 or more); see the class comment
   */
  MultiplesTable(EdwardsPoint p, int windowBits, int passes) {
    this.windowBits = windowBits;
    this.passes = passes;
    this.perRow = 1 << (windowBits - 1);
    // Digits of a scalar below 2^253 over 256 bits: the top one never carries out.
    this.positions = (256 + windowBits - 1) / windowBits;
    int rows = (positions + passes - 1) / passes;
    EdwardsPoint[] points = new EdwardsPoint[rows * perRow];
    EdwardsPoint base = new EdwardsPoint(p);
    for (int r = 0; r < rows; r++) {
      EdwardsPoint multiple = new EdwardsPoint(base);
      points[r * perRow] = new EdwardsPoint(multiple);
      for (int j = 1; j < perRow; j++) {
        multiple.add(base);
        points[r * perRow + j] = new EdwardsPoint(multiple);
      }
      // multiple = 2^(w-1) base; the next row's base is 2^(w passes) base.
      for (int k = 0; k < windowBits * passes - (windowBits - 1); k++) {
        multiple.doubleInPlace();
      }
      base = multiple;
    }
    entries = toNiels(points);
  }

  /** Bits per digit. */
  int windowBits() {
    return windowBits;
  }

  /** Number of passes; the sum is doubled {@link #windowBits} times between two. */
  int passes() {
    return passes;
  }

  /**
   * The signed digits of a scalar below 2^253 given as 32 little-endian bytes from {@code offset}.
   */
  int[] digits(byte[] scalar, int offset) {
    int[] e = new int[positions];
    int mask = (1 << windowBits) - 1;
    for (int i = 0; i < positions; i++) {
      int bit = i * windowBits;
      int index = offset + (bit >> 3);
      int window = scalar[index] & 0xFF;
      if ((bit >> 3) + 1 < 32) {
        window |= (scalar[index + 1] & 0xFF) << 8;
      }
      e[i] = (window >> (bit & 7)) & mask;
    }
    // A digit of 2^(w-1) or more borrows 2^w from the next one.
    int half = perRow;
    for (int i = 0; i < positions - 1; i++) {
      int carry = (e[i] + half) >> windowBits;
      e[i] -= carry << windowBits;
      e[i + 1] += carry;
    }
    return e;
  }

  /**
   * sum += (or -= when {@code negate}) the digits of pass {@code pass}: e_i times row i / passes's
   * base, for the positions i = pass mod passes.
   */
  void addPass(EdwardsPoint sum, int[] digits, int pass, boolean negate) {
    for (int i = pass, row = 0; i < positions; i += passes, row++) {
      int e = digits[i];
      if (e > 0) {
        sum.add(entries, (row * perRow + e - 1) * ENTRY, negate);
      } else if (e < 0) {
        sum.add(entries, (row * perRow - e - 1) * ENTRY, !negate);
      }
    }
  }

  /** Niels forms of the points, with one inversion for all (Montgomery's trick). */
  private static long[] toNiels(EdwardsPoint[] points) {
    int n = points.length;
    long[][] prefix = new long[n][];
    long[] acc = Field25519.one();
    for (int i = 0; i < n; i++) {
      Field25519.mul(acc, acc, points[i].z);
      prefix[i] = Field25519.copy(acc); // z_0 ... z_i
    }
    long[] inv = Field25519.zero();
    Field25519.invert(inv, acc); // 1 / (z_0 ... z_{n-1})
    long[] out = new long[n * ENTRY];
    long[] element = Field25519.zero();
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
      Field25519.add(element, y, x);
      Field25519.carry(element);
      System.arraycopy(element, 0, out, i * ENTRY + Y_PLUS_X, Field25519.LIMBS);
      Field25519.sub(element, y, x);
      Field25519.carry(element);
      System.arraycopy(element, 0, out, i * ENTRY + Y_MINUS_X, Field25519.LIMBS);
      Field25519.mul(element, x, y);
      Field25519.mul(element, element, EdwardsPoint.D2);
      System.arraycopy(element, 0, out, i * ENTRY + XY2D, Field25519.LIMBS);
    }
    return out;
  }
}
