package io.lineup.bench.jmh;

import io.lineup.core.internal.store.KeySpace;
import io.lineup.core.internal.store.LeaseNonce;
import io.lineup.core.model.QueueName;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the engine makes in-process on every script call: the lease nonce ({@link
 * LeaseNonce#next()}, once per lease call) and the twelve key names of a queue ({@link
 * KeySpace#queueKeys}, built anew on every call). Job ids are generated inside Redis by the publish
 * script, so they cost nothing here.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class IdentifiersBenchmark {
  private final QueueName queue = QueueName.of("shop", "close-unpaid");

  @Benchmark
  public String leaseNonce() {
    return LeaseNonce.next();
  }

  @Benchmark
  public byte[][] queueKeys() {
    return KeySpace.queueKeys(queue);
  }
}
