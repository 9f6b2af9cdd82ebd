package io.lineup.pass;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.KeyPair;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How long an offline check takes (the pass_verify_us_p99; lineup-bench does not measure it
 * yet). Prints the figures; asserts only that every check succeeded, since the time depends on the
 * machine.
 */
class PassVerifySpeedTest {
  @Test
  void printsTheTimeOfAnOfflineCheck() throws Exception {
    KeyPair keys = Ed25519Keys.generate();
    Instant now = Instant.now();
    String token =
        new PassSigner("k", keys.getPrivate())
            .sign(new Pass("shop/checkout", "t1", "t1.x", now, now.plusSeconds(600), "k"));
    PassVerifier verifier = PassVerifier.of(Map.of("k", keys.getPublic()));
    for (int i = 0; i < 3_000; i++) {
      verifier.verify(token, "shop/checkout"); // warm-up: the JIT compiles the Ed25519 code
    }
    long[] nanos = new long[5_000];
    for (int i = 0; i < nanos.length; i++) {
      long start = System.nanoTime();
      Pass pass = verifier.verify(token, "shop/checkout");
      nanos[i] = System.nanoTime() - start;
      assertThat(pass.ticket()).isEqualTo("t1");
    }
    Arrays.sort(nanos);
    System.out.printf(
        "pass_verify_us p50 %.1f, p99 %.1f (%d checks, %s)%n",
        nanos[nanos.length / 2] / 1000.0,
        nanos[nanos.length * 99 / 100] / 1000.0,
        nanos.length,
        System.getProperty("java.version"));
  }
}
