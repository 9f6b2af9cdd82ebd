package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.redis.RedisProcess;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A soak run, outside {@code bin/test}: publishers at a steady rate and workers over HTTP for a few
 * minutes, with one line every 10 s of throughput, Redis memory and clients, and the JVM's threads
 * and heap after a GC. At the end the second half of the run is compared with the first: the rate
 * held, and Redis memory, connections, threads and heap did not grow.
 *
 * <pre>
 * ./mvnw -B -ntp verify -pl lineup-server -am -Dtest=SoakTest -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dlineup.soak=true -Dlineup.soak.minutes=3 -Dlineup.soak.rate=500
 * </pre>
 */
@EnabledIfSystemProperty(named = "lineup.soak", matches = "true")
class SoakTest {
  static final int MINUTES = Integer.getInteger("lineup.soak.minutes", 3);
  static final int RATE = Integer.getInteger("lineup.soak.rate", 500);
  static final Duration SAMPLE_EVERY = Duration.ofSeconds(10);

  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  static Api api;

  @BeforeAll
  static void connect() {
    api = server.admin();
  }

  record Sample(long acked, long redisBytes, long redisClients, int threads, long heapBytes) {}

  @Test
  void aSteadyLoadRunsAtAFlatRateWithFlatMemoryThreadsConnectionsAndHeap() throws Exception {
    String queue = "/v1/queues/soak/steady";
    // Finished records go after 10 s, so memory can settle once retention starts deleting.
    assertThat(api.patch(queue, "{\"retention_ms\": 10000}").status()).isEqualTo(200);
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong acked = new AtomicLong();
    AtomicLong published = new AtomicLong();
    List<Thread> threads = new ArrayList<>();
    threads.add(
        Thread.ofVirtual()
            .start(() -> {
              long start = System.nanoTime();
              long sent = 0;
              while (!stop.get()) {
                long due = (System.nanoTime() - start) * RATE / 1_000_000_000L;
                for (; sent < due && !stop.get(); sent += 10) {
                  StringBuilder body = new StringBuilder("[");
                  for (int i = 0; i < 10; i++) {
                    body.append(i == 0 ? "" : ",")
                        .append("{\"payload\": \"")
                        .append("x".repeat(100))
                        .append("\"}");
                  }
                  if (api.post(queue + "/jobs", body.append(']').toString()).status() == 201) {
                    published.addAndGet(10);
                  }
                }
                sleep(10);
              }
            }));
    for (int w = 0; w < 4; w++) {
      threads.add(
          Thread.ofVirtual()
              .start(() -> {
                while (!stop.get()) {
                  Reply leased = api.post(queue + "/leases", "{\"count\": 20, \"wait_ms\": 500}");
                  if (leased.status() != 200) {
                    continue;
                  }
                  for (var job : leased.json().get("jobs")) {
                    Reply ack =
                        api.post(
                            queue + "/jobs/" + job.get("id").asText() + "/ack",
                            "{\"token\": \"" + job.get("token").asText() + "\"}");
                    if (ack.status() == 204) {
                      acked.incrementAndGet();
                    }
                  }
                }
              }));
    }

    List<Sample> samples = new ArrayList<>();
    long end = System.nanoTime() + Duration.ofMinutes(MINUTES).toNanos();
    long previousAcked = 0;
    while (System.nanoTime() < end) {
      Thread.sleep(SAMPLE_EVERY.toMillis());
      Sample sample = sample(server.redisProcess(), acked.get());
      samples.add(sample);
      System.out.printf(
          "soak %3d s: %,6.0f acks/s, Redis %,d bytes and %d clients, JVM %d threads,"
              + " heap %,d bytes after GC%n",
          samples.size() * SAMPLE_EVERY.toSeconds(),
          (sample.acked() - previousAcked) / (double) SAMPLE_EVERY.toSeconds(),
          sample.redisBytes(),
          sample.redisClients(),
          sample.threads(),
          sample.heapBytes());
      previousAcked = sample.acked();
    }
    // What was published and not yet acked when the run ended: the workers kept up with the
    // publishers if it is no more than a few seconds of publishing, however fast this machine
    // published (issue 49: no rate asserted).
    long backlog = published.get() - acked.get();
    stop.set(true);
    for (Thread thread : threads) {
      thread.join(Duration.ofSeconds(10));
    }

    // The first 30 s warm up (JIT, pools) and fill retention; compare the middle with the end.
    List<Sample> settled = samples.subList(Math.min(3, samples.size() - 2), samples.size());
    Sample first = settled.get(0);
    Sample last = settled.get(settled.size() - 1);
    double rate =
        (last.acked() - first.acked()) / (double) ((settled.size() - 1) * SAMPLE_EVERY.toSeconds());
    System.out.printf(
        "soak: %.0f acks/s against %d published/s; Redis memory %+.1f %%, clients %d -> %d,"
            + " threads %d -> %d, heap %+.1f %%%n",
        rate,
        RATE,
        100.0 * (last.redisBytes() - first.redisBytes()) / first.redisBytes(),
        first.redisClients(),
        last.redisClients(),
        first.threads(),
        last.threads(),
        100.0 * (last.heapBytes() - first.heapBytes()) / first.heapBytes());
    assertThat(backlog)
        .as("jobs published and not acked at the end (the workers kept up)")
        .isLessThanOrEqualTo(RATE * 5L);
    assertThat(last.redisBytes()).as("Redis memory is flat").isLessThan(first.redisBytes() * 5 / 4);
    assertThat(last.redisClients())
        .as("no connection leak")
        .isLessThanOrEqualTo(first.redisClients() + 2);
    assertThat(last.threads()).as("no thread leak").isLessThanOrEqualTo(first.threads() + 5);
    assertThat(last.heapBytes()).as("the heap is flat").isLessThan(first.heapBytes() * 3 / 2);
  }

  private static Sample sample(RedisProcess redis, long acked) {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    memory.gc();
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    return new Sample(
        acked,
        RedisInfo.usedMemory(redis),
        RedisInfo.field(redis, "clients", "connected_clients"),
        threads.getThreadCount(),
        memory.getHeapMemoryUsage().getUsed());
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
