package io.lineup.pass;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The field arithmetic against BigInteger, including limbs at the bounds the point code uses. */
class Field25519Test {
  static final BigInteger P = Field25519.P;
  final Random random = new Random(255);

  @Test
  void productsAndSquaresOfLimbsUpToTheAcceptedBoundEqualBigIntegerArithmetic() {
    for (int i = 0; i < 20_000; i++) {
      long[] f = randomLimbs(i % 4 == 0 ? 53 : 52);
      long[] g = randomLimbs(i % 3 == 0 ? 53 : 51);
      long[] product = assertProductAndSquareAgreeWithBigIntegers(f, g);
      assertThat(new BigInteger(1, reverse(Field25519.toBytes(product))))
          .isEqualTo(value(f).multiply(value(g)).mod(P));
    }
  }

  @Test
  void theExtremeLimbsOfEitherSignMultiplyWithoutOverflow() {
    long max = (1L << 53) - 1;
    for (long a : new long[] {max, -max}) {
      for (long b : new long[] {max, -max}) {
        long[] f = {a, a, a, a, a};
        long[] g = {b, b, b, b, b};
        assertProductAndSquareAgreeWithBigIntegers(f, g);
      }
    }
  }

  /**
   * Multiplies {@code f} by {@code g} and squares {@code f}, and checks both against BigInteger
   * arithmetic modulo p and within the output bound of the limbs.
   *
   * @return the product
   */
  private static long[] assertProductAndSquareAgreeWithBigIntegers(long[] f, long[] g) {
    long[] product = Field25519.zero();
    Field25519.mul(product, f, g);
    long[] square = Field25519.zero();
    Field25519.square(square, f);

    assertThat(value(product).mod(P)).isEqualTo(value(f).multiply(value(g)).mod(P));
    assertThat(value(square).mod(P)).isEqualTo(value(f).pow(2).mod(P));
    assertWithinOutputBound(product);
    assertWithinOutputBound(square);
    return product;
  }

  /** The bound the point formulas rely on: a sum of three outputs is still a valid input. */
  static void assertWithinOutputBound(long[] f) {
    for (long limb : f) {
      assertThat(Math.abs(limb)).isLessThan((1L << 51) + (1L << 14));
    }
  }

  @Test
  void encodingReducesValuesNearAndAboveP() {
    for (long delta = -40; delta <= 40; delta++) {
      BigInteger v = P.add(BigInteger.valueOf(delta));
      if (v.bitLength() > 255) {
        continue;
      }
      byte[] bytes = Field25519.littleEndian(v);

      assertThat(Field25519.isCanonical(bytes, 0)).isEqualTo(delta < 0);
      assertThat(new BigInteger(1, reverse(Field25519.toBytes(Field25519.fromBytes(bytes, 0)))))
          .isEqualTo(v.mod(P));
    }
  }

  @Test
  void anInverseTimesItsElementIsOne() {
    for (int i = 0; i < 200; i++) {
      long[] f = randomLimbs(51);
      long[] inverse = Field25519.zero();
      Field25519.invert(inverse, f);

      assertThat(value(inverse).mod(P)).isEqualTo(value(f).mod(P).modInverse(P));
    }
  }

  long[] randomLimbs(int bits) {
    long[] f = new long[Field25519.LIMBS];
    for (int i = 0; i < f.length; i++) {
      long magnitude = random.nextLong() >>> (64 - bits);
      f[i] = random.nextBoolean() ? magnitude : -magnitude;
    }
    return f;
  }

  static BigInteger value(long[] f) {
    BigInteger v = BigInteger.ZERO;
    for (int i = f.length - 1; i >= 0; i--) {
      v = v.shiftLeft(51).add(BigInteger.valueOf(f[i]));
    }
    return v;
  }

  static byte[] reverse(byte[] bytes) {
    byte[] out = new byte[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      out[i] = bytes[bytes.length - 1 - i];
    }
    return out;
  }
}
