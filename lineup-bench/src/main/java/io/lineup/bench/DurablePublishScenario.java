package io.lineup.bench;

import io.lettuce.core.RedisURI;
import io.lineup.bench.report.Figure;
import io.lineup.core.model.Durability;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.QueueName;
import io.lineup.redis.RedisProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * {@code publish_durable_per_s}: single publishes as {@code publish_per_s} ({@link
 * PublishScenario#IN_FLIGHT} in flight), each answered only once one replica holds it ({@code
 * Durability.replicas(1)}: the publish script, then {@code WAIT 1} on the connection of durable
 * publishes). The bench starts the replica itself, a redis-server on 127.0.0.1 following the
 * bench's Redis, and stops it afterwards; a quarter of {@code publish_jobs} are published.
 */
final class DurablePublishScenario {
  /** Longest wait for the replica's first synchronisation (Redis pauses 5 s before it). */
  static final long SYNC_TIMEOUT_MS = 60_000;

  private DurablePublishScenario() {}

  static Figure run(BenchContext context) {
    int jobs = Math.max(1, context.counts().publishJobs() / 4);
    RedisURI master = RedisURI.create(context.redis().uri());
    try (RedisProcess replica = RedisProcess.builder().build().start()) {
      replica.command("REPLICAOF " + master.getHost() + " " + master.getPort());
      awaitSync(replica);
      context.say(
          "publish_durable_per_s: a replica on port %d follows the bench's Redis", replica.port());

      QueueName warm = context.freshQueue("durable-warmup");
      context.say("publish_durable_per_s: warm-up %,d jobs", context.counts().warmup(jobs));
      publish(context, warm, context.counts().warmup(jobs));
      context.redis().dropQueue(warm);

      QueueName queue = context.freshQueue("durable");
      context.say(
          "publish_durable_per_s: %,d jobs, %d in flight, each acknowledged by the replica",
          jobs, PublishScenario.IN_FLIGHT);
      RedisProbe probe = RedisProbe.start(context);
      long nanos = publish(context, queue, jobs);
      RedisProbe.Cost cost = probe.finish("publish_durable_per_s", jobs);
      context.redis().dropQueue(queue);
      return new Figure(
          "publish_durable_per_s",
          BenchContext.perSecond(jobs, nanos),
          Figure.Unit.PER_SECOND,
          cost.redisMicrosPerJob(),
          cost.benchMicrosPerJob(),
          jobs);
    } catch (IOException e) {
      throw new UncheckedIOException("The bench's replica did not answer", e);
    }
  }

  private static void awaitSync(RedisProcess replica) throws IOException {
    long deadline = System.currentTimeMillis() + SYNC_TIMEOUT_MS;
    while (!replica.command("INFO replication").contains("master_link_status:up")) {
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException(
            "The replica did not synchronise with the bench's Redis within "
                + SYNC_TIMEOUT_MS
                + " ms");
      }
      Pause.millis(50);
    }
  }

  private static long publish(BenchContext context, QueueName queue, int jobs) {
    byte[] payload = Payloads.payload();
    Durability oneReplica = Durability.replicas(1);
    return InFlight.runAsync(
        jobs,
        PublishScenario.IN_FLIGHT,
        i -> context.lineup().publishAllAsync(queue, List.of(NewJob.of(payload)), oneReplica));
  }
}
