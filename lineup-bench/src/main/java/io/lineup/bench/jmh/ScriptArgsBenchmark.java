package io.lineup.bench.jmh;

import io.lineup.core.internal.store.Args;
import io.lineup.core.internal.store.PublishWire;
import io.lineup.core.model.NewJob;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Building a script's ARGV with {@link Args}, as the engine does for a publish of one job, a bulk
 * publish of 100, and a lease call carrying 100 acks: the same values in the same order as the
 * engine's publisher and leaser (10 values per job, 3 per ack).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ScriptArgsBenchmark {
  private static final int BULK = 100;

  private NewJob one;
  private List<NewJob> hundred;
  private List<String[]> acks;

  @Setup
  public void setUp() {
    byte[] payload = new byte[100];
    one = NewJob.of(payload);
    hundred = new ArrayList<>();
    acks = new ArrayList<>();
    for (int i = 0; i < BULK; i++) {
      hundred.add(NewJob.of(payload));
      acks.add(new String[] {"~" + Integer.toString(1000 + i, 36), "k3j9x2mq." + 1});
    }
  }

  @Benchmark
  public byte[][] publishOfOneJob() {
    return publishArgs(List.of(one));
  }

  @Benchmark
  public byte[][] publishOfHundredJobs() {
    return publishArgs(hundred);
  }

  @Benchmark
  public byte[][] leaseCarryingHundredAcks() {
    Args args = new Args(5 + acks.size() * 3);
    args.add("").add(BULK).add("k3j9x2mq").add(0.5).add(acks.size());
    for (String[] ack : acks) {
      args.add(ack[0]).add(ack[1]).add((byte[]) null);
    }
    return args.toArray();
  }

  /** The engine's own argument building for the publish script. */
  private static byte[][] publishArgs(List<NewJob> jobs) {
    return PublishWire.arguments("", jobs);
  }
}
