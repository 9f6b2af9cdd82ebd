package io.lineup.pass;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.EdECPrivateKeySpec;
import java.security.spec.NamedParameterSpec;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The RFC 8032 section 7.1 test vectors through {@link Ed25519Verifier}. */
class Ed25519VerifierTest {
  record Vector(String name, byte[] secret, byte[] key, byte[] message, byte[] signature) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Vector> vectors() throws Exception {
    HexFormat hex = HexFormat.of();
    List<Vector> vectors = new ArrayList<>();
    try (InputStream in = Ed25519VerifierTest.class.getResourceAsStream("rfc8032-ed25519.txt");
        BufferedReader reader =
            new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII))) {
      String line;
      while ((line = reader.readLine()) != null) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        String[] f = line.split("\\|", -1);
        vectors.add(
            new Vector(
                f[0],
                hex.parseHex(f[1]),
                hex.parseHex(f[2]),
                hex.parseHex(f[3]),
                hex.parseHex(f[4])));
      }
    }
    assertThat(vectors).hasSize(5);
    return vectors.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("vectors")
  void theTranscribedVectorIsWhatTheJdkSignsWithItsSecretKey(Vector v) throws Exception {
    PrivateKey secret =
        KeyFactory.getInstance("Ed25519")
            .generatePrivate(new EdECPrivateKeySpec(NamedParameterSpec.ED25519, v.secret()));
    Signature signer = Signature.getInstance("Ed25519");
    signer.initSign(secret);
    signer.update(v.message());

    assertThat(signer.sign()).isEqualTo(v.signature());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("vectors")
  void theVectorsSignatureVerifiesWithItsRawKeyAndWithItsJdkKey(Vector v) {
    assertThat(Ed25519Verifier.of(v.key()).verify(v.message(), v.signature())).isTrue();
    assertThat(Ed25519Verifier.of(Ed25519Keys.fromRaw(v.key())).verify(v.message(), v.signature()))
        .isTrue();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("vectors")
  void everySingleFlippedSignatureBitMakesTheVectorFail(Vector v) {
    Ed25519Verifier verifier = Ed25519Verifier.of(v.key());
    for (int bit = 0; bit < 512; bit++) {
      byte[] signature = flip(v.signature(), bit);

      assertThat(verifier.verify(v.message(), signature)).as("bit %d", bit).isFalse();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("vectors")
  void aFlippedMessageBitMakesTheVectorFail(Vector v) {
    Ed25519Verifier verifier = Ed25519Verifier.of(v.key());
    if (v.message().length == 0) {
      assertThat(verifier.verify(new byte[] {1}, v.signature())).isFalse();
      return;
    }
    int bits = v.message().length * 8;
    for (int bit : new int[] {0, 1, 7, bits / 2, bits - 1}) {
      assertThat(verifier.verify(flip(v.message(), bit), v.signature()))
          .as("bit %d", bit)
          .isFalse();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("vectors")
  void everySingleFlippedKeyBitMakesTheVectorFail(Vector v) {
    for (int bit = 0; bit < 256; bit++) {
      Ed25519Verifier verifier = Ed25519Verifier.of(flip(v.key(), bit));

      assertThat(verifier.verify(v.message(), v.signature())).as("bit %d", bit).isFalse();
    }
  }

  static byte[] flip(byte[] bytes, int bit) {
    byte[] copy = bytes.clone();
    copy[bit >> 3] ^= (byte) (1 << (bit & 7));
    return copy;
  }
}
