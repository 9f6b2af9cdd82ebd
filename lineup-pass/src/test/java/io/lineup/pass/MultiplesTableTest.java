package io.lineup.pass;

import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.pass.ReferenceCurve.Point;
import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Scalar multiples summed from a table equal the reference curve's, for every table shape. */
class MultiplesTableTest {
  @ParameterizedTest(name = "{0}-bit digits in {1} passes")
  @CsvSource({"4, 2", "5, 3", "6, 2", "7, 1", "8, 1"})
  void theTablesSumOfDigitsIsTheScalarMultiple(int windowBits, int passes) {
    Random random = new Random(windowBits * 10L + passes);
    Point p = ReferenceCurve.multiply(new BigInteger(252, random), ReferenceCurve.B);
    MultiplesTable table =
        new MultiplesTable(EdwardsPoint.decode(ReferenceCurve.encode(p), 0), windowBits, passes);
    BigInteger maxScalar = ReferenceCurve.L.subtract(BigInteger.ONE);
    for (BigInteger e :
        new BigInteger[] {
          BigInteger.ZERO,
          BigInteger.ONE,
          maxScalar,
          new BigInteger(253, random).mod(maxScalar),
          new BigInteger(200, random),
          BigInteger.ONE.shiftLeft(252)
        }) {
      EdwardsPoint sum = new EdwardsPoint();
      int[] digits = table.digits(ReferenceCurve.le(e), 0);
      for (int pass = passes - 1; pass > 0; pass--) {
        table.addPass(sum, digits, pass, false);
        for (int j = 0; j < windowBits; j++) {
          sum.doubleInPlace();
        }
      }
      table.addPass(sum, digits, 0, false);

      assertThat(sum.encode())
          .as("e = %s", e)
          .isEqualTo(ReferenceCurve.encode(ReferenceCurve.multiply(e, p)));
    }
  }
}
