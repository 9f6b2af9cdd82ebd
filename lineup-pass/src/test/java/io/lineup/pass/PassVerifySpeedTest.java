package io.lineup.pass;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.KeyPair;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How long an offline check takes, the first time a verifier sees a token and when it sees it again
 * (lineup-bench measures the same as {@code pass_verify_us_p99} and {@code
 * pass_verify_repeat_us_p99}). Prints the figures; asserts only that every check succeeded, since
 * the time depends on the machine.
 */
class PassVerifySpeedTest {
  @Test
  void printsTheTimeOfAFirstAndARepeatedOfflineCheck() throws Exception {
    KeyPair keys = Ed25519Keys.generate();
    PassSigner signer = new PassSigner("k", keys.getPrivate());
    Instant now = Instant.now();
    String[] tokens = new String[2_000];
    for (int i = 0; i < tokens.length; i++) {
      tokens[i] =
          signer.sign(
              new Pass("shop/checkout", "t" + i, "t" + i + ".x", now, now.plusSeconds(600), "k"));
    }
    PassVerifier verifier = PassVerifier.of(Map.of("k", keys.getPublic()));
    for (int i = 0; i < 500; i++) {
      verifier.verify(tokens[i], "shop/checkout"); // warm-up: the JIT compiles the Ed25519 code
    }
    long[] first = time(verifier, tokens, 500);
    long[] repeated = time(verifier, tokens, 500);
    System.out.printf(
        "pass_verify_us first check p50 %.1f, p99 %.1f; repeated p50 %.1f, p99 %.1f"
            + " (%d checks each, %s)%n",
        first[first.length / 2] / 1000.0,
        first[first.length * 99 / 100] / 1000.0,
        repeated[repeated.length / 2] / 1000.0,
        repeated[repeated.length * 99 / 100] / 1000.0,
        first.length,
        System.getProperty("java.version"));
  }

  private static long[] time(PassVerifier verifier, String[] tokens, int from) throws Exception {
    long[] nanos = new long[tokens.length - from];
    for (int i = 0; i < nanos.length; i++) {
      long start = System.nanoTime();
      Pass pass = verifier.verify(tokens[from + i], "shop/checkout");
      nanos[i] = System.nanoTime() - start;
      assertThat(pass.ticket()).isEqualTo("t" + (from + i));
    }
    Arrays.sort(nanos);
    return nanos;
  }
}
