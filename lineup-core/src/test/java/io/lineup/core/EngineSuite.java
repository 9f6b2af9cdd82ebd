package io.lineup.core;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.resource.ClientResources;
import io.lineup.core.internal.store.KeySpace;
import io.lineup.core.model.QueueName;
import io.lineup.redis.RedisProcess;
import io.lineup.testing.TestRedis;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.TestInstance;

/**
 * The base of the engine's behaviour suites. A suite states the engine's behaviour once, as an
 * abstract class, and runs on a standalone Redis and on a three-master Redis Cluster through two
 * subclasses ({@code XOnStandaloneTest} and {@code XOnClusterTest}) that only say which Redis.
 * Tests get their engines, and whatever they read from Redis directly, from here, so nothing in a
 * suite depends on the topology.
 *
 * <p>One instance per class ({@link TestInstance.Lifecycle#PER_CLASS}), so that a suite's
 * {@code @BeforeAll} and {@code @AfterAll} may use {@link #redis()}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class EngineSuite {
  private ClientResources rawResources;
  private AutoCloseable rawClient;
  private StatefulConnection<byte[], byte[]> rawConnection;
  private RedisClusterCommands<byte[], byte[]> raw;

  /** The Redis this run of the suite uses, started by the subclass's extension. */
  abstract TestRedis redis();

  /** An engine on the suite's Redis, background loops on; the test closes it. */
  Lineup anEngine() {
    return Fixtures.anEngine(redis());
  }

  /** An engine on the suite's Redis with options changed by {@code tune}; the test closes it. */
  Lineup anEngine(UnaryOperator<LineupOptions.Builder> tune) {
    return Fixtures.anEngine(redis(), tune);
  }

  /**
   * Redis commands outside the engine, to read what it stored; on a cluster each command goes to
   * the node that holds its key. Opened on first use, closed after the suite.
   */
  RedisClusterCommands<byte[], byte[]> raw() {
    if (raw == null) {
      rawResources = ClientResources.create();
      if (redis().isCluster()) {
        List<RedisURI> nodes =
            redis().nodes().stream().map(node -> RedisURI.create(node.uri())).toList();
        RedisClusterClient client = RedisClusterClient.create(rawResources, nodes);
        rawClient = client::shutdown;
        var connection = client.connect(ByteArrayCodec.INSTANCE);
        rawConnection = connection;
        raw = connection.sync();
      } else {
        RedisClient client = RedisClient.create(rawResources, redis().uri());
        rawClient = client::shutdown;
        var connection = client.connect(ByteArrayCodec.INSTANCE);
        rawConnection = connection;
        raw = connection.sync();
      }
    }
    return raw;
  }

  @AfterAll
  void closeRaw() throws Exception {
    if (raw != null) {
      rawConnection.close();
      rawClient.close();
      rawResources.shutdown();
      raw = null;
    }
  }

  /** A figure of {@code INFO <section>} added up over every node, e.g. blocked clients. */
  long infoSum(String section, String field) {
    return infoOnEachNode(section, field).stream().mapToLong(Long::longValue).sum();
  }

  /**
   * A figure of {@code INFO <section>} on each node, in the order of {@link TestRedis#nodes()}.
   *
   * @throws IllegalStateException when a node's answer has no such field
   */
  List<Long> infoOnEachNode(String section, String field) {
    String prefix = field + ":";
    List<Long> figures = new ArrayList<>();
    for (String info : infoOfEachNode(section)) {
      figures.add(
          info.lines()
              .filter(line -> line.startsWith(prefix))
              .map(line -> Long.parseLong(line.substring(prefix.length()).trim()))
              .findFirst()
              .orElseThrow(
                  () -> new IllegalStateException("INFO " + section + " has no " + field)));
    }
    return figures;
  }

  /** The text of {@code INFO <section>} of each node, in the order of {@link TestRedis#nodes()}. */
  List<String> infoOfEachNode(String section) {
    List<String> answers = new ArrayList<>();
    for (RedisProcess node : redis().nodes()) {
      try {
        answers.add(node.command("INFO " + section));
      } catch (IOException e) {
        throw new UncheckedIOException("INFO " + section + " from " + node.uri(), e);
      }
    }
    return answers;
  }

  /** The Redis server that holds {@code queue}'s keys. */
  RedisProcess nodeOf(QueueName queue) {
    int slot = SlotHash.getSlot(KeySpace.hashTag(queue).getBytes(StandardCharsets.UTF_8));
    return redis().nodes().get(redis().nodeOfSlot(slot));
  }

  /**
   * {@code count} fresh queues spread over the nodes: on a cluster the i-th queue's slot is on node
   * {@code i % nodes}, so a test using them crosses nodes; on one server they are just fresh
   * queues.
   */
  List<QueueName> queuesSpreadOverTheNodes(int count) {
    int nodes = redis().nodes().size();
    List<QueueName> found = new ArrayList<>();
    while (found.size() < count) {
      QueueName queue = Fixtures.aFreshQueue();
      int slot = SlotHash.getSlot(KeySpace.hashTag(queue).getBytes(StandardCharsets.UTF_8));
      if (redis().nodeOfSlot(slot) == found.size() % nodes) {
        found.add(queue);
      }
    }
    return found;
  }
}
