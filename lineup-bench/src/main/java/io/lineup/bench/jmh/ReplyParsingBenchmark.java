package io.lineup.bench.jmh;

import io.lineup.core.internal.store.RedisStore;
import io.lineup.core.internal.store.Replies;
import io.lineup.core.internal.store.ScriptReplies;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.PublishResult;
import io.lineup.core.model.QueueName;
import java.nio.charset.StandardCharsets;
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
 * Reading script replies with {@link Replies} as Lettuce hands them over (Lua numbers as Long,
 * strings as byte[], tables as List): a lease reply of 100 jobs into {@link LeasedJob} records and
 * a bulk publish reply of 100 jobs into {@link PublishResult}s, field by field as the engine's
 * leaser and publisher read them.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ReplyParsingBenchmark {
  private static final int JOBS = 100;
  private static final QueueName QUEUE = QueueName.of("shop", "close-unpaid");

  private List<Object> leaseReply;
  private List<Object> publishReply;
  private List<Object> plainPublishReply;

  @Setup
  public void setUp() {
    long now = 1_750_000_000_000L;
    // A job's stored body as the lease gives it: a msgpack array of its payload (str 8 of 100
    // bytes) and its creation time (uint 64).
    byte[] body = new byte[3 + 100 + 9];
    body[0] = (byte) 0x92;
    body[1] = (byte) 0xd9;
    body[2] = 100;
    body[103] = (byte) 0xcf;
    for (int b = 0; b < 8; b++) {
      body[104 + b] = (byte) ((now - 5) >>> (56 - 8 * b));
    }
    leaseReply = new ArrayList<>();
    leaseReply.add(List.of());
    leaseReply.add(0L);
    leaseReply.add(0L);
    leaseReply.add(now);
    leaseReply.add(3L);
    publishReply = new ArrayList<>();
    for (int i = 0; i < JOBS; i++) {
      byte[] id = ("~" + Integer.toString(100_000 + i, 36)).getBytes(StandardCharsets.US_ASCII);
      leaseReply.addAll(List.of(id, body, 1L, now + 30_000));
      publishReply.addAll(List.of(id, 1L, bytes("READY"), now, (long) i));
    }
    plainPublishReply = List.of(bytes("~"), 1_000_000L, bytes("READY"), now, 0L);
  }

  @Benchmark
  public List<LeasedJob> leaseReplyOfHundredJobs() {
    return ScriptReplies.leasedJobs(QUEUE, leaseReply, "k3j9x2mq");
  }

  @Benchmark
  public List<PublishResult> publishReplyOfHundredJobs() {
    return ScriptReplies.publish(publishReply, JOBS, QUEUE, RedisStore.NO_FENCE);
  }

  @Benchmark
  public List<PublishResult> plainPublishReplyOfHundredJobs() {
    return ScriptReplies.publish(plainPublishReply, JOBS, QUEUE, RedisStore.NO_FENCE);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }
}
