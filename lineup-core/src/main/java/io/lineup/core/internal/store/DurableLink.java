package io.lineup.core.internal.store;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.ArrayOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.lineup.core.model.RedisUnavailableException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The connection durable publishes go through: their script, then {@code WAIT} (and {@code
 * WAITAOF}) on the same connection, since Redis waits for the writes of the client that asks.
 *
 * <p>A connection of its own, because {@code WAIT} holds the connection it runs on until the
 * replicas answer: on the shared connection every lease and ack would queue behind it. In a Cluster
 * the script is routed by its keys and the wait goes to the master of the same slot through the
 * same pooled node connection (Lettuce keys both by the node's host and port).
 */
final class DurableLink implements AutoCloseable {
  /** Redis 7.2's {@code WAITAOF numlocal numreplicas timeout}. */
  private static final ProtocolKeyword WAITAOF =
      new ProtocolKeyword() {
        private final byte[] bytes = "WAITAOF".getBytes(StandardCharsets.US_ASCII);

        @Override
        public byte[] getBytes() {
          return bytes;
        }

        @Override
        public String name() {
          return "WAITAOF";
        }
      };

  private final StatefulConnection<byte[], byte[]> connection;
  private final RedisClusterAsyncCommands<byte[], byte[]> commands;
  private final Function<byte[], CompletableFuture<RedisClusterAsyncCommands<byte[], byte[]>>>
      writerOf;
  private final boolean waitForDisk;

  private DurableLink(
      StatefulConnection<byte[], byte[]> connection,
      RedisClusterAsyncCommands<byte[], byte[]> commands,
      Function<byte[], CompletableFuture<RedisClusterAsyncCommands<byte[], byte[]>>> writerOf,
      boolean waitForDisk) {
    this.connection = connection;
    this.commands = commands;
    this.writerOf = writerOf;
    this.waitForDisk = waitForDisk;
  }

  /**
   * A link to one server or a Sentinel-managed master.
   *
   * @param waitForDisk whether to send {@code WAITAOF} too (Redis 7.2+, append-only file on)
   */
  static DurableLink standalone(RedisClient client, boolean waitForDisk) {
    StatefulRedisConnection<byte[], byte[]> server = client.connect(ByteArrayCodec.INSTANCE);
    RedisClusterAsyncCommands<byte[], byte[]> commands = server.async();
    return new DurableLink(
        server, commands, key -> CompletableFuture.completedFuture(commands), waitForDisk);
  }

  /**
   * A link to a Redis Cluster.
   *
   * @param waitForDisk whether to send {@code WAITAOF} too (Redis 7.2+, append-only file on)
   */
  static DurableLink cluster(RedisClusterClient client, boolean waitForDisk) {
    StatefulRedisClusterConnection<byte[], byte[]> cluster =
        client.connect(ByteArrayCodec.INSTANCE);
    return new DurableLink(
        cluster,
        cluster.async(),
        key -> {
          RedisClusterNode master = cluster.getPartitions().getMasterBySlot(SlotHash.getSlot(key));
          if (master == null) {
            return CompletableFuture.failedFuture(
                new RedisUnavailableException("No Cluster master serves the queue's slot", null));
          }
          return cluster
              .getConnectionAsync(master.getUri().getHost(), master.getUri().getPort())
              .thenApply(StatefulRedisConnection::async);
        },
        waitForDisk);
  }

  /** The commands scripts are sent with (routed by their keys in a Cluster). */
  RedisClusterAsyncCommands<byte[], byte[]> commands() {
    return commands;
  }

  /**
   * Waits, on the server holding {@code key}, until {@code replicas} replicas hold every write this
   * link sent so far, at most {@code timeout}; then, with {@code waitForDisk}, until that server
   * wrote them to its append-only file.
   *
   * @return the replicas that acknowledged and whether the disk write was confirmed (true when not
   *     asked for)
   */
  CompletableFuture<Acknowledgement> awaitReplicas(byte[] key, int replicas, Duration timeout) {
    long millis = Math.max(1, timeout.toMillis());
    return writerOf
        .apply(key)
        .thenCompose(writer ->
            writer
                .waitForReplication(replicas, millis)
                .toCompletableFuture()
                .thenCompose(acknowledged -> {
                  if (!waitForDisk) {
                    return CompletableFuture.completedFuture(
                        new Acknowledgement(acknowledged, true));
                  }
                  return writer
                      .dispatch(
                          WAITAOF,
                          new ArrayOutput<>(ByteArrayCodec.INSTANCE),
                          new CommandArgs<>(ByteArrayCodec.INSTANCE).add(1).add(0).add(millis))
                      .toCompletableFuture()
                      .thenApply(
                          reply -> new Acknowledgement(acknowledged, localFsyncs(reply) >= 1));
                }));
  }

  private static long localFsyncs(List<Object> reply) {
    return reply.isEmpty() ? 0 : ((Number) reply.get(0)).longValue();
  }

  /**
   * What the servers confirmed.
   *
   * @param replicas replicas holding the writes
   * @param onDisk whether the master wrote them to its disk (true when that was not asked)
   */
  record Acknowledgement(long replicas, boolean onDisk) {}

  /** Whether the connection is open. */
  boolean isOpen() {
    return connection.isOpen();
  }

  @Override
  public void close() {
    connection.close();
  }
}
