package io.lineup.pass;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.KeyPair;
import java.security.Signature;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** One verifier shared by many threads, as a PassVerifier is. */
class Ed25519ConcurrencyTest {
  @Test
  void threadsSharingAFreshVerifierAllGetTheRightAnswers() throws Exception {
    KeyPair keys = Ed25519Keys.generate();
    Signature signer = Signature.getInstance("Ed25519");
    signer.initSign(keys.getPrivate());
    Random random = new Random(8);
    int n = 400;
    byte[][] messages = new byte[n][];
    byte[][] signatures = new byte[n][];
    for (int i = 0; i < n; i++) {
      messages[i] = new byte[64 + i % 200];
      random.nextBytes(messages[i]);
      signer.update(messages[i]);
      signatures[i] = signer.sign();
    }
    // Fresh, so the threads also race to make the key's table.
    Ed25519Verifier verifier = Ed25519Verifier.of(keys.getPublic());
    int threads = 8;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Integer>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int offset = t * 37;
        results.add(
            pool.submit(() -> {
              start.await();
              int right = 0;
              for (int j = 0; j < n; j++) {
                int i = (offset + j) % n;
                boolean valid = verifier.verify(messages[i], signatures[i]);
                boolean altered = verifier.verify(messages[(i + 1) % n], signatures[i]);
                if (valid && !altered) {
                  right++;
                }
              }
              return right;
            }));
      }
      start.countDown();
      for (Future<Integer> result : results) {
        assertThat(result.get()).isEqualTo(n);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
