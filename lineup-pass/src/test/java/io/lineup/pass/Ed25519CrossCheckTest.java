package io.lineup.pass;

import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.pass.ReferenceCurve.Point;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.Signature;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link Ed25519Verifier} against the JDK's {@code Signature.getInstance("Ed25519")}: on every
 * input, valid or not, both give the same answer.
 */
class Ed25519CrossCheckTest {
  final Random random = new Random(20261123);
  // One verifier per key and path, as a PassVerifier keeps them: a key's table is made once.
  final Map<String, Ed25519Verifier> byRawKey = new HashMap<>();
  final Map<String, Ed25519Verifier> byJdkKey = new HashMap<>();
  int accepted;
  int refused;

  /**
   * Random keys of the first test: each costs a key table and 25 checks on both paths, about 0.1 s
   * at rest. 60 keys (1,500 checks) in the suite; {@code -Dlineup.pass.crossCheckKeys=300} for the
   * long run.
   */
  static final int RANDOM_KEYS = Integer.getInteger("lineup.pass.crossCheckKeys", 60);

  @Test
  void randomKeysMessagesAndAlteredSignaturesGetTheJdksAnswer() throws Exception {
    for (int round = 0; round < RANDOM_KEYS; round++) {
      KeyPair keys = Ed25519Keys.generate();
      byte[] raw = Ed25519Keys.raw(keys.getPublic());
      for (int i = 0; i < 5; i++) {
        byte[] message = new byte[random.nextInt(400)];
        random.nextBytes(message);
        byte[] signature = jdkSign(keys, message);

        check(raw, message, signature);
        check(raw, message, flipRandomBit(signature));
        check(raw, message.length == 0 ? new byte[1] : flipRandomBit(message), signature);
        check(flipRandomBit(raw), message, signature);
        check(raw, message, withS(signature, s(signature).add(ReferenceCurve.L)));
      }
    }
    assertThat(accepted).isEqualTo(RANDOM_KEYS * 5);
    assertThat(refused).isEqualTo(RANDOM_KEYS * 20);
  }

  @Test
  void signaturesMadeFromRandomScalarsGetTheJdksAnswer() throws Exception {
    // Keys [a]B and nonces [r]B of the reference curve; S also at its limits 0 and L - 1.
    for (int i = 0; i < 100; i++) {
      BigInteger a = new BigInteger(252, random);
      Point key = ReferenceCurve.multiply(a, ReferenceCurve.B);
      byte[] message = randomBytes(32);
      BigInteger r = i % 10 == 0 ? BigInteger.ZERO : new BigInteger(252, random);
      byte[] signature = sign(a, key, r, ReferenceCurve.IDENTITY, message);

      check(ReferenceCurve.encode(key), message, signature);
      check(ReferenceCurve.encode(key), message, withS(signature, ReferenceCurve.L));
      check(
          ReferenceCurve.encode(key),
          message,
          withS(signature, ReferenceCurve.L.subtract(BigInteger.ONE)));
    }
    assertThat(accepted).isGreaterThanOrEqualTo(100);
  }

  @Test
  void smallOrderAndMixedOrderKeysAndNoncesGetTheJdksAnswer() throws Exception {
    List<Point> torsion = ReferenceCurve.torsionPoints(() -> randomBytes(32));
    assertThat(torsion).hasSize(8).doesNotHaveDuplicates();
    for (Point t : torsion) {
      for (int i = 0; i < 12; i++) {
        // A = [a]B + T (a = 0 for a purely small-order key), R = [r]B + T' with T' a random
        // torsion point: then the signature verifies exactly when T' = -[k]T, so about one in
        // eight do, and the answer depends on k being reduced mod L as the JDK does.
        BigInteger a = i < 4 ? BigInteger.ZERO : new BigInteger(252, random);
        Point key = ReferenceCurve.add(ReferenceCurve.multiply(a, ReferenceCurve.B), t);
        Point nonceTorsion = torsion.get(random.nextInt(8));
        byte[] message = randomBytes(16);
        byte[] signature = sign(a, key, new BigInteger(252, random), nonceTorsion, message);

        check(ReferenceCurve.encode(key), message, signature);
      }
      // The identity key: (R = [S]B, S) verifies for every message.
      byte[] message = randomBytes(8);
      BigInteger s = new BigInteger(252, random);
      byte[] signature =
          concat(ReferenceCurve.encode(ReferenceCurve.multiply(s, ReferenceCurve.B)), le(s));
      check(ReferenceCurve.encode(ReferenceCurve.IDENTITY), message, signature);
      // A small-order R with S = 0 against a small-order key.
      check(
          ReferenceCurve.encode(t),
          message,
          concat(ReferenceCurve.encode(torsion.get(random.nextInt(8))), new byte[32]));
    }
    // The 8 identity-key signatures verify, and about one in eight of the 96 crafted ones.
    assertThat(accepted).isGreaterThan(10);
    assertThat(refused).isGreaterThan(50);
  }

  @Test
  void nonCanonicalAndInvalidEncodingsOfRAndAGetTheJdksAnswer() throws Exception {
    List<byte[]> odd = new ArrayList<>();
    // y from p to 2^255 - 1 (a y - p that is also valid), with either sign bit.
    for (int extra = 0; extra < 19; extra++) {
      byte[] y = le(ReferenceCurve.P.add(BigInteger.valueOf(extra)));
      odd.add(y);
      byte[] signed = y.clone();
      signed[31] |= (byte) 0x80;
      odd.add(signed);
    }
    // x = 0 with the sign bit set: (0, 1) and (0, -1).
    byte[] one = le(BigInteger.ONE);
    one[31] |= (byte) 0x80;
    odd.add(one);
    byte[] minusOne = le(ReferenceCurve.P.subtract(BigInteger.ONE));
    minusOne[31] |= (byte) 0x80;
    odd.add(minusOne);
    // y with no x on the curve.
    int offCurve = 0;
    while (offCurve < 20) {
      byte[] y = randomBytes(32);
      if (ReferenceCurve.decode(y) == null) {
        odd.add(y);
        offCurve++;
      }
    }

    KeyPair keys = Ed25519Keys.generate();
    byte[] raw = Ed25519Keys.raw(keys.getPublic());
    byte[] message = randomBytes(50);
    byte[] signature = jdkSign(keys, message);
    for (byte[] encoding : odd) {
      // As R, in a signature that is otherwise well formed.
      check(raw, message, concat(encoding, slice(signature, 32, 64)));
      // As A, with the S of a real signature and R = [S]B (which verifies when A is the identity).
      BigInteger s = new BigInteger(252, random);
      byte[] sb = ReferenceCurve.encode(ReferenceCurve.multiply(s, ReferenceCurve.B));
      check(encoding, message, concat(sb, le(s)));
      check(encoding, message, signature);
    }
    // The identity written non-canonically (y = p + 1) as A, and as R with S = 0 and the key
    // the identity: both refused, while the canonical identity verifies.
    byte[] identity = ReferenceCurve.encode(ReferenceCurve.IDENTITY);
    byte[] nonCanonicalIdentity = le(ReferenceCurve.P.add(BigInteger.ONE));
    check(identity, message, concat(identity, new byte[32]));
    check(identity, message, concat(nonCanonicalIdentity, new byte[32]));
    check(nonCanonicalIdentity, message, concat(identity, new byte[32]));
    assertThat(refused).isGreaterThan(odd.size() * 3 - 5);
  }

  /** Both verifiers, through the raw key and through the JDK key, give the same answer. */
  void check(byte[] rawKey, byte[] message, byte[] signature) {
    boolean jdk = jdkVerifies(rawKey, message, signature);
    String hex = HexFormat.of().formatHex(rawKey);
    boolean mine =
        byRawKey.computeIfAbsent(hex, h -> Ed25519Verifier.of(rawKey)).verify(message, signature);
    String what =
        "key %s, message %s, signature %s"
            .formatted(
                HexFormat.of().formatHex(rawKey),
                HexFormat.of().formatHex(message),
                HexFormat.of().formatHex(signature));
    assertThat(mine).as(what).isEqualTo(jdk);
    PublicKey key = jdkKey(rawKey);
    if (key != null) {
      assertThat(
              byJdkKey
                  .computeIfAbsent(hex, h -> Ed25519Verifier.of(key))
                  .verify(message, signature))
          .as(what)
          .isEqualTo(jdk);
    }
    if (jdk) {
      accepted++;
    } else {
      refused++;
    }
  }

  static boolean jdkVerifies(byte[] rawKey, byte[] message, byte[] signature) {
    PublicKey key = jdkKey(rawKey);
    if (key == null) {
      return false;
    }
    try {
      Signature verifier = Signature.getInstance("Ed25519");
      verifier.initVerify(key);
      verifier.update(message);
      return verifier.verify(signature);
    } catch (GeneralSecurityException e) {
      return false; // an invalid key or R, or S of L or more
    }
  }

  static PublicKey jdkKey(byte[] rawKey) {
    try {
      return Ed25519Keys.fromRaw(rawKey);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  static byte[] jdkSign(KeyPair keys, byte[] message) throws GeneralSecurityException {
    Signature signer = Signature.getInstance("Ed25519");
    signer.initSign(keys.getPrivate());
    signer.update(message);
    return signer.sign();
  }

  /** (R, S) with R = [r]B + nonceTorsion, k = H(R, A, M) mod L, S = r + k a mod L. */
  static byte[] sign(BigInteger a, Point key, BigInteger r, Point nonceTorsion, byte[] message)
      throws Exception {
    byte[] encodedR =
        ReferenceCurve.encode(
            ReferenceCurve.add(ReferenceCurve.multiply(r, ReferenceCurve.B), nonceTorsion));
    MessageDigest sha = MessageDigest.getInstance("SHA-512");
    sha.update(encodedR);
    sha.update(ReferenceCurve.encode(key));
    sha.update(message);
    BigInteger k = ReferenceCurve.fromLe(sha.digest()).mod(ReferenceCurve.L);
    BigInteger s = r.add(k.multiply(a)).mod(ReferenceCurve.L);
    return concat(encodedR, le(s));
  }

  static BigInteger s(byte[] signature) {
    return ReferenceCurve.fromLe(slice(signature, 32, 64));
  }

  static byte[] withS(byte[] signature, BigInteger s) {
    return concat(slice(signature, 0, 32), le(s));
  }

  static byte[] le(BigInteger value) {
    return ReferenceCurve.le(value);
  }

  static byte[] slice(byte[] bytes, int from, int to) {
    return java.util.Arrays.copyOfRange(bytes, from, to);
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  byte[] randomBytes(int n) {
    byte[] bytes = new byte[n];
    random.nextBytes(bytes);
    return bytes;
  }

  byte[] flipRandomBit(byte[] bytes) {
    return Ed25519VerifierTest.flip(bytes, random.nextInt(bytes.length * 8));
  }
}
