package io.lineup.testing;

import io.lineup.redis.RedisProcess;
import java.util.List;

/**
 * The Redis a test class runs against, one server or a cluster, as far as a test needs to know it:
 * where to connect, and the server processes behind it. Both {@link RedisServerExtension} and
 * {@link RedisClusterExtension} are one, so a suite written against this interface runs on either.
 */
public interface TestRedis {
  /** Slots of a Redis Cluster. */
  int CLUSTER_SLOTS = 16384;

  /**
   * What a client connects to: {@code redis://127.0.0.1:PORT} for one server, the comma list of
   * every node's URI for a cluster (the form Lineup takes).
   *
   * @throws IllegalStateException before the extension has started its Redis
   */
  String uri();

  /**
   * The server processes: the one server, or every master of a cluster in the order of the slots
   * they serve (the first serves slot 0).
   *
   * @throws IllegalStateException before the extension has started its Redis
   */
  List<RedisProcess> nodes();

  /** Whether this is a Redis Cluster. */
  boolean isCluster();

  /**
   * The index in {@link #nodes()} of the node serving a cluster slot; always 0 for one server.
   *
   * @param slot the slot, 0 to 16383 (Lettuce's {@code SlotHash.getSlot} computes it for a key)
   * @throws IllegalArgumentException when the slot is outside 0 to 16383
   */
  int nodeOfSlot(int slot);
}
