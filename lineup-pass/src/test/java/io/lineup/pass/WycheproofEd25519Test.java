package io.lineup.pass;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every Ed25519 vector of Project Wycheproof ({@code wycheproof/ed25519_test.json}, see the README
 * beside it) against every verifier lineup-pass uses, and BouncyCastle's: a {@code valid} vector
 * verifies, an {@code invalid} one does not. An {@code acceptable} vector (one a verifier may
 * accept or refuse; the file has none today) must get one answer from lineup-pass's verifiers, the
 * JDK's, since the tabulated one promises the JDK's answer on every input; BouncyCastle may differ
 * there.
 */
class WycheproofEd25519Test {
  record Vector(
      int id, String comment, List<?> flags, String result, byte[] key, byte[] msg, byte[] sig) {
    @Override
    public String toString() {
      return "tcId " + id + " (" + result + "): " + comment + " " + flags;
    }
  }

  static final Ed25519Implementations IMPLEMENTATIONS = new Ed25519Implementations();

  static Map<?, ?> file() throws Exception {
    try (InputStream in =
        WycheproofEd25519Test.class.getResourceAsStream("/wycheproof/ed25519_test.json")) {
      return (Map<?, ?>) MiniJson.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  static Stream<Vector> vectors() throws Exception {
    HexFormat hex = HexFormat.of();
    List<Vector> vectors = new ArrayList<>();
    for (Object g : (List<?>) file().get("testGroups")) {
      Map<?, ?> group = (Map<?, ?>) g;
      assertThat(group.get("type")).isEqualTo("EddsaVerify");
      Map<?, ?> publicKey = (Map<?, ?>) group.get("publicKey");
      assertThat(publicKey.get("curve")).isEqualTo("edwards25519");
      byte[] key = hex.parseHex((String) publicKey.get("pk"));
      for (Object t : (List<?>) group.get("tests")) {
        Map<?, ?> test = (Map<?, ?>) t;
        vectors.add(
            new Vector(
                ((BigDecimal) test.get("tcId")).intValueExact(),
                (String) test.get("comment"),
                (List<?>) test.get("flags"),
                (String) test.get("result"),
                key,
                hex.parseHex((String) test.get("msg")),
                hex.parseHex((String) test.get("sig"))));
      }
    }
    return vectors.stream();
  }

  @Test
  void theFileHoldsEveryVectorItCountsOfBothKinds() throws Exception {
    List<Vector> vectors = vectors().toList();
    assertThat(vectors)
        .hasSize(((BigDecimal) file().get("numberOfTests")).intValueExact())
        .hasSizeGreaterThanOrEqualTo(150);
    assertThat(vectors).extracting(Vector::result).contains("valid", "invalid");
    assertThat(vectors)
        .extracting(Vector::result)
        .allMatch(r -> r.equals("valid") || r.equals("invalid") || r.equals("acceptable"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("vectors")
  void everyVerifierGivesTheVectorsExpectedAnswer(Vector v) {
    for (Ed25519Implementations.Implementation implementation : IMPLEMENTATIONS.all()) {
      boolean verified = implementation.verify(v.key(), v.msg(), v.sig());
      switch (v.result()) {
        case "valid" -> assertThat(verified).as(implementation.name()).isTrue();
        case "invalid" -> assertThat(verified).as(implementation.name()).isFalse();
        default -> {
          boolean jdk =
              IMPLEMENTATIONS.all().get(0).verify(v.key(), v.msg(), v.sig()); // the JDK's answer
          if (!implementation.name().equals(Ed25519Implementations.BOUNCY_CASTLE)) {
            assertThat(verified).as(implementation.name() + " as the JDK").isEqualTo(jdk);
          }
        }
      }
    }
  }
}
