package io.lineup.pass;

import static io.lineup.pass.Ed25519CrossCheckTest.concat;
import static io.lineup.pass.Ed25519CrossCheckTest.le;
import static io.lineup.pass.Ed25519CrossCheckTest.slice;
import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.pass.ReferenceCurve.Point;
import java.math.BigInteger;
import java.security.KeyPair;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The JDK's Ed25519, lineup-pass's tabulated one and BouncyCastle's on the same inputs: random keys
 * and messages, their signatures, and those signatures, messages and keys altered (bit flips, byte
 * swaps, S + L and other S of L or more, R and keys that are non-canonical, off the curve or of
 * small order, signatures cut short or made longer), and signatures whose R is one bit away from
 * the point the equation gives (made with the secret key, so that only a complete comparison of R
 * refuses them). All three give one answer on every input, with one deliberate divergence, checked
 * as such: BouncyCastle refuses every key of small order, and for a key or an R with a small-order
 * part it checks a multiple of the equation, while the JDK and lineup-pass check the cofactorless
 * equation [S]B = R + [k]A exactly (RFC 8032 allows both). Such keys and signatures can only be
 * made on purpose, by the key's owner; a room's key is made by Lineup. Seeded, and bounded: a few
 * thousand checks.
 */
class Ed25519DifferentialTest {
  final Random random = new Random(20261129);
  final Ed25519Implementations implementations = new Ed25519Implementations();
  final List<Point> torsion = ReferenceCurve.torsionPoints(() -> randomBytes(32));
  int accepted;
  int refused;
  int bouncyCastleDiffers;

  @Test
  void alteredSignaturesMessagesAndKeysOfRandomKeysGetOneAnswerFromAllThree() throws Exception {
    int keys = 80;
    for (int round = 0; round < keys; round++) {
      KeyPair pair = Ed25519Keys.generate();
      byte[] key = Ed25519Keys.raw(pair.getPublic());
      byte[] message = randomBytes(random.nextInt(300));
      byte[] signature = Ed25519CrossCheckTest.jdkSign(pair, message);
      BigInteger s = Ed25519CrossCheckTest.s(signature);

      agree(key, message, signature);
      // A bit of R, swept over its 256 across the rounds; R's sign bit; a bit of S.
      agree(key, message, flip(signature, round * 256 / keys + random.nextInt(256 / keys)));
      agree(key, message, flip(signature, 255));
      agree(key, message, flip(signature, 256 + random.nextInt(256)));
      int first = random.nextInt(512);
      int second = (first + 1 + random.nextInt(511)) % 512; // another bit: never the original
      agree(key, message, flip(flip(signature, first), second));
      agree(key, message.length == 0 ? new byte[1] : flip(message, bit(message)), signature);
      agree(key, Arrays.copyOf(message, message.length + 1), signature);
      agree(flip(key, random.nextInt(256)), message, signature);
      agree(key, message, swapTwoBytes(signature));
      agree(key, message, concat(slice(signature, 32, 64), slice(signature, 0, 32)));
      // S of L or more: S + L (a valid signature if S were reduced), S + 15 L (the most that
      // fits in 256 bits), L itself, S with its top bit set, all ones.
      agree(key, message, withS(signature, s.add(ReferenceCurve.L)));
      agree(
          key, message, withS(signature, s.add(ReferenceCurve.L.multiply(BigInteger.valueOf(15)))));
      agree(key, message, withS(signature, ReferenceCurve.L));
      agree(key, message, withS(signature, s.setBit(255)));
      agree(key, message, withS(signature, BigInteger.ONE.shiftLeft(256).subtract(BigInteger.ONE)));
      // Cut short and made longer.
      agree(key, message, slice(signature, 0, 63));
      agree(key, message, slice(signature, 0, 32));
      agree(key, message, new byte[0]);
      agree(key, message, Arrays.copyOf(signature, 65));
      agree(key, message, concat(signature, signature));
      // R replaced: by the key, by the identity, by a point of small order (S kept, or 0).
      agree(key, message, concat(key, slice(signature, 32, 64)));
      agree(key, message, concat(ReferenceCurve.encode(ReferenceCurve.IDENTITY), new byte[32]));
      agree(key, message, concat(encode(torsion.get(1 + random.nextInt(7))), le(s)));
    }
    assertThat(accepted).isEqualTo(keys); // exactly the unaltered signatures
    assertThat(refused).isEqualTo(keys * 22);
    assertThat(bouncyCastleDiffers).isZero();
  }

  @Test
  void nonCanonicalAndOffCurveEncodingsOfRAndTheKeyGetOneAnswerFromAllThree() throws Exception {
    List<byte[]> odd = new ArrayList<>();
    // y from p to 2^255 - 1, each with either sign bit: y - p is a valid y for some of them.
    for (int extra = 0; extra < 19; extra++) {
      byte[] y = le(ReferenceCurve.P.add(BigInteger.valueOf(extra)));
      odd.add(y);
      odd.add(flip(y, 255));
    }
    // x = 0 with the sign bit set: (0, 1) and (0, -1).
    odd.add(flip(le(BigInteger.ONE), 255));
    odd.add(flip(le(ReferenceCurve.P.subtract(BigInteger.ONE)), 255));
    // y with no x on the curve.
    while (odd.size() < 60) {
      byte[] y = randomBytes(32);
      if (ReferenceCurve.decode(y) == null) {
        odd.add(y);
      }
    }
    KeyPair pair = Ed25519Keys.generate();
    byte[] key = Ed25519Keys.raw(pair.getPublic());
    byte[] message = randomBytes(40);
    byte[] signature = Ed25519CrossCheckTest.jdkSign(pair, message);
    for (byte[] encoding : odd) {
      agree(key, message, concat(encoding, slice(signature, 32, 64)));
      agree(encoding, message, signature);
      // With R = [S]B, which verifies for the identity key: a key that decodes to it must not.
      BigInteger s = new BigInteger(252, random);
      agree(encoding, message, concat(encode(ReferenceCurve.multiply(s, ReferenceCurve.B)), le(s)));
    }
    // The identity written canonically, as key and as R with S = 0: verifies for every message in
    // the cofactorless equation (and is refused by BouncyCastle, as a key of small order); the
    // same written non-canonically (y = p + 1): refused by all.
    byte[] identity = ReferenceCurve.encode(ReferenceCurve.IDENTITY);
    byte[] nonCanonicalIdentity = le(ReferenceCurve.P.add(BigInteger.ONE));
    agree(nonCanonicalIdentity, message, concat(identity, new byte[32]));
    agree(identity, message, concat(nonCanonicalIdentity, new byte[32]));
    assertThat(accepted).isZero();
    assertThat(refused).isEqualTo(odd.size() * 3 + 2);
    assertThat(bouncyCastleDiffers).isZero();
  }

  @Test
  void signaturesWhoseRIsOneBitFromTheCheckedPointGetOneAnswerFromAllThree() throws Exception {
    // R' is R = [r]B with one bit flipped, and S = r + k a with k = H(R', A, M): then [S]B - [k]A
    // is the point R, whose encoding differs from R' in that bit alone. A verifier that compares
    // points or encodings incompletely accepts. Every bit of R, for three keys and nonces.
    int tried = 0;
    for (int i = 0; i < 3; i++) {
      BigInteger a = new BigInteger(252, random);
      byte[] key = encode(ReferenceCurve.multiply(a, ReferenceCurve.B));
      BigInteger r = new BigInteger(252, random);
      byte[] encodedR = encode(ReferenceCurve.multiply(r, ReferenceCurve.B));
      for (int bit = 0; bit < 256; bit++) {
        byte[] nearR = flip(encodedR, bit);
        byte[] message = randomBytes(24);
        BigInteger k = hash(nearR, key, message).mod(ReferenceCurve.L);
        BigInteger s = r.add(k.multiply(a)).mod(ReferenceCurve.L);
        agree(key, message, concat(nearR, le(s)));
        tried++;
      }
    }
    assertThat(accepted).isZero();
    assertThat(refused).isEqualTo(tried);
    assertThat(bouncyCastleDiffers).isZero();
  }

  static BigInteger hash(byte[] r, byte[] key, byte[] message) throws Exception {
    java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-512");
    sha.update(r);
    sha.update(key);
    sha.update(message);
    return ReferenceCurve.fromLe(sha.digest());
  }

  @Test
  void smallOrderAndMixedOrderKeysAndNoncesSplitOnlyWhereTheCofactorlessEquationIsChosen()
      throws Exception {
    for (Point t : torsion) {
      for (int i = 0; i < 10; i++) {
        // A = [a]B + T (a = 0: a key of small order), R = [r]B + T' with T' of small order:
        // then the cofactorless equation holds exactly when T' = -[k]T, about one in eight.
        BigInteger a = i < 3 ? BigInteger.ZERO : new BigInteger(252, random);
        Point key = ReferenceCurve.add(ReferenceCurve.multiply(a, ReferenceCurve.B), t);
        Point nonceTorsion = torsion.get(random.nextInt(8));
        byte[] message = randomBytes(16);
        byte[] signature =
            Ed25519CrossCheckTest.sign(a, key, new BigInteger(252, random), nonceTorsion, message);
        agree(encode(key), message, signature);
        agree(encode(key), message, flip(signature, random.nextInt(512)));
      }
      // A small-order R with S = 0 against a small-order key.
      agree(
          encode(t), randomBytes(8), concat(encode(torsion.get(random.nextInt(8))), new byte[32]));
    }
    // Some of these verify in the JDK (T' = -[k]T), none for BouncyCastle when the key is of
    // small order.
    assertThat(accepted).isGreaterThan(3);
    assertThat(refused).isGreaterThan(100);
    assertThat(bouncyCastleDiffers).isGreaterThan(0);
  }

  /**
   * The JDK's answer is every lineup-pass verifier's; BouncyCastle's too, unless the key or R has a
   * part of small order (the divergence the class describes), which is counted.
   */
  void agree(byte[] key, byte[] message, byte[] signature) {
    Map<String, Boolean> answers = new LinkedHashMap<>();
    for (Ed25519Implementations.Implementation implementation : implementations.all()) {
      answers.put(implementation.name(), implementation.verify(key, message, signature));
    }
    boolean jdk = answers.get(Ed25519Implementations.JDK);
    HexFormat hex = HexFormat.of();
    String what =
        "key %s, message %s, signature %s: %s"
            .formatted(
                hex.formatHex(key), hex.formatHex(message), hex.formatHex(signature), answers);
    assertThat(answers.get(Ed25519Implementations.TABULATED_RAW)).as(what).isEqualTo(jdk);
    assertThat(answers.get(Ed25519Implementations.TABULATED_JDK_KEY)).as(what).isEqualTo(jdk);
    if (answers.get(Ed25519Implementations.BOUNCY_CASTLE) != jdk) {
      assertThat(
              Arrays.equals(key, encode(ReferenceCurve.IDENTITY))
                  || hasSmallOrderPart(key)
                  || hasSmallOrderPart(slice(signature, 0, 32)))
          .as("BouncyCastle differs without a part of small order: " + what)
          .isTrue();
      bouncyCastleDiffers++;
    }
    if (jdk) {
      accepted++;
    } else {
      refused++;
    }
  }

  /**
   * Whether the bytes are a canonical point outside the group of prime order L (its [L] multiple is
   * not the identity): of small order other than the identity, or mixed.
   */
  static boolean hasSmallOrderPart(byte[] encoding) {
    Point point = encoding.length == 32 ? ReferenceCurve.decode(encoding) : null;
    return point != null
        && Arrays.equals(encode(point), encoding)
        && !ReferenceCurve.multiply(ReferenceCurve.L, point).equals(ReferenceCurve.IDENTITY);
  }

  static byte[] encode(Point point) {
    return ReferenceCurve.encode(point);
  }

  static byte[] withS(byte[] signature, BigInteger s) {
    byte[] out = Arrays.copyOf(signature, 64);
    byte[] bytes = s.toByteArray(); // big-endian, maybe with a leading 0
    Arrays.fill(out, 32, 64, (byte) 0);
    for (int i = 0; i < 32 && i < bytes.length; i++) {
      out[32 + i] = bytes[bytes.length - 1 - i];
    }
    return out;
  }

  static byte[] flip(byte[] bytes, int bit) {
    return Ed25519VerifierTest.flip(bytes, bit);
  }

  int bit(byte[] bytes) {
    return random.nextInt(bytes.length * 8);
  }

  byte[] swapTwoBytes(byte[] signature) {
    byte[] out = signature.clone();
    int i;
    int j;
    do {
      i = random.nextInt(64);
      j = random.nextInt(64);
    } while (out[i] == out[j]);
    byte b = out[i];
    out[i] = out[j];
    out[j] = b;
    return out;
  }

  byte[] randomBytes(int n) {
    byte[] bytes = new byte[n];
    random.nextBytes(bytes);
    return bytes;
  }
}
