package io.lineup.core.internal.store;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.ByteArrayCodec;

/**
 * Where a blocking wait on a key runs: a dedicated connection to the server (or Cluster node) that
 * holds the key, and a shared connection to the same server for {@code CLIENT UNBLOCK}.
 */
interface BlockingLinks {
  /** A new dedicated connection to the server holding {@code key}. */
  StatefulRedisConnection<byte[], byte[]> connect(byte[] key);

  /** A shared connection to the server holding {@code key}, for short commands. */
  RedisClusterAsyncCommands<byte[], byte[]> control(byte[] key);

  /**
   * Names the server holding {@code key}; waits on keys of different servers cannot share a
   * connection.
   */
  String serverOf(byte[] key);

  /** One server (plain Redis or Sentinel-managed master). */
  static BlockingLinks standalone(
      RedisClient client, StatefulRedisConnection<byte[], byte[]> shared) {
    return new BlockingLinks() {
      @Override
      public StatefulRedisConnection<byte[], byte[]> connect(byte[] key) {
        return client.connect(ByteArrayCodec.INSTANCE);
      }

      @Override
      public RedisClusterAsyncCommands<byte[], byte[]> control(byte[] key) {
        return shared.async();
      }

      @Override
      public String serverOf(byte[] key) {
        return "server";
      }
    };
  }

  /** A Redis Cluster: each key's slot decides its node. */
  static BlockingLinks cluster(
      RedisClusterClient client,
      StatefulRedisClusterConnection<byte[], byte[]> shared,
      RedisClient nodeClient,
      RedisURI seed) {
    return new BlockingLinks() {
      private RedisClusterNode node(byte[] key) {
        RedisClusterNode node = client.getPartitions().getPartitionBySlot(SlotHash.getSlot(key));
        if (node == null) {
          client.refreshPartitions();
          node = client.getPartitions().getPartitionBySlot(SlotHash.getSlot(key));
        }
        if (node == null) {
          throw new io.lineup.core.model.RedisUnavailableException(
              "No Cluster node serves the slot of a wake-up key", null);
        }
        return node;
      }

      @Override
      public StatefulRedisConnection<byte[], byte[]> connect(byte[] key) {
        RedisURI address = node(key).getUri();
        RedisURI uri = RedisURI.builder(address).withTimeout(seed.getTimeout()).build();
        uri.setCredentialsProvider(seed.getCredentialsProvider());
        uri.setSsl(seed.isSsl());
        return nodeClient.connect(ByteArrayCodec.INSTANCE, uri);
      }

      @Override
      public RedisClusterAsyncCommands<byte[], byte[]> control(byte[] key) {
        return shared.getConnection(node(key).getNodeId()).async();
      }

      @Override
      public String serverOf(byte[] key) {
        return node(key).getNodeId();
      }
    };
  }
}
