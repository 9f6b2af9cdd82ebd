package io.lineup.pass;

import java.security.PublicKey;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Every Ed25519 verifier the tests compare, each taking a raw 32-byte key: the two lineup-pass uses
 * ({@link JdkEd25519Verifier}, the default, and the opt-in {@link Ed25519Verifier}, reached both
 * from the raw key and from the JDK's key object, as {@link PassVerifier} makes it) and
 * BouncyCastle's (test scope only). A verifier of a key is made once per key, as a PassVerifier
 * keeps it, so that a key's table is reused. Not thread-safe.
 */
final class Ed25519Implementations {
  /** One implementation: whether {@code signature} is {@code rawKey}'s signature of a message. */
  interface Implementation {
    String name();

    boolean verify(byte[] rawKey, byte[] message, byte[] signature);
  }

  static final String JDK = "JDK Signature(\"Ed25519\")";
  static final String TABULATED_RAW = "tabulated Ed25519Verifier (raw key)";
  static final String TABULATED_JDK_KEY = "tabulated Ed25519Verifier (JDK key)";
  static final String BOUNCY_CASTLE = "BouncyCastle Ed25519";

  private final Map<String, SignatureCheck> jdk = new HashMap<>();
  private final Map<String, SignatureCheck> tabulatedRaw = new HashMap<>();
  private final Map<String, SignatureCheck> tabulatedJdkKey = new HashMap<>();

  /** The verifiers lineup-pass has, then BouncyCastle's. */
  List<Implementation> all() {
    return List.of(
        of(JDK, (key, m, s) -> checker(jdk, key, k -> JdkEd25519Verifier.of(k)).verify(m, s)),
        of(TABULATED_RAW, (key, m, s) -> tabulatedRaw(key).verify(m, s)),
        of(
            TABULATED_JDK_KEY,
            (key, m, s) -> checker(tabulatedJdkKey, key, Ed25519Verifier::of).verify(m, s)),
        of(BOUNCY_CASTLE, Ed25519Implementations::bouncyCastle));
  }

  private SignatureCheck tabulatedRaw(byte[] rawKey) {
    return tabulatedRaw.computeIfAbsent(
        HexFormat.of().formatHex(rawKey), h -> Ed25519Verifier.of(rawKey));
  }

  /**
   * The verifier of the JDK's key object for {@code rawKey}; when the JDK makes no key of these
   * bytes (a PassVerifier is then never built: its JWKS is refused), one that refuses everything.
   */
  private static SignatureCheck checker(
      Map<String, SignatureCheck> made,
      byte[] rawKey,
      java.util.function.Function<PublicKey, SignatureCheck> factory) {
    return made.computeIfAbsent(
        HexFormat.of().formatHex(rawKey),
        h -> {
          PublicKey key = jdkKey(rawKey);
          return key == null ? (m, s) -> false : factory.apply(key);
        });
  }

  static PublicKey jdkKey(byte[] rawKey) {
    try {
      return Ed25519Keys.fromRaw(rawKey);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  static boolean bouncyCastle(byte[] rawKey, byte[] message, byte[] signature) {
    if (rawKey.length != 32 || signature.length != 64) {
      return false; // BouncyCastle's low-level call reads fixed lengths; it would not look
    }
    return org.bouncycastle.math.ec.rfc8032.Ed25519.verify(
        signature, 0, rawKey, 0, message, 0, message.length);
  }

  private interface Verify {
    boolean verify(byte[] rawKey, byte[] message, byte[] signature);
  }

  private static Implementation of(String name, Verify verify) {
    return new Implementation() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public boolean verify(byte[] rawKey, byte[] message, byte[] signature) {
        return verify.verify(rawKey, message, signature);
      }

      @Override
      public String toString() {
        return name;
      }
    };
  }
}
