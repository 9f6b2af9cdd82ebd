package io.lineup.testing;

import io.lineup.redis.RedisProcess;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Gives a test class a real Redis Cluster of three masters on free ports, the 16384 slots split in
 * three equal ranges between them (no replicas).
 *
 * <p>Forming a cluster takes a few seconds (the nodes must meet and agree), so test classes that
 * isolate themselves with unique queue names share one: {@link #sharedThreeMasters()} starts it for
 * the first class of the test run that asks and stops it, deleting every node's data folder, when
 * the run ends. {@link #threeMasters()} gives a class a cluster of its own, stopped after its last
 * test, for a test that changes the cluster itself.
 *
 * <pre>{@code
 * @RegisterExtension static RedisClusterExtension cluster = RedisClusterExtension.sharedThreeMasters();
 * }</pre>
 */
public final class RedisClusterExtension implements BeforeAllCallback, AfterAllCallback, TestRedis {
  /** Longest wait for the nodes to agree on the cluster once they were told to meet. */
  public static final Duration READY_TIMEOUT = Duration.ofSeconds(30);

  private static final ExtensionContext.Namespace SHARED =
      ExtensionContext.Namespace.create(RedisClusterExtension.class);
  private static final int MASTERS = 3;

  private final boolean shared;
  private Cluster cluster;

  private RedisClusterExtension(boolean shared) {
    this.shared = shared;
  }

  /** A cluster of three masters for this test class alone, stopped after its last test. */
  public static RedisClusterExtension threeMasters() {
    return new RedisClusterExtension(false);
  }

  /**
   * The test run's one cluster of three masters: started by the first test class that uses it,
   * reused by every later one, stopped when the run ends.
   */
  public static RedisClusterExtension sharedThreeMasters() {
    return new RedisClusterExtension(true);
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    if (shared) {
      // The root context's store lives as long as the run and closes what it holds at its end.
      cluster =
          context
              .getRoot()
              .getStore(SHARED)
              .getOrComputeIfAbsent("three-masters", key -> Cluster.start(MASTERS), Cluster.class);
    } else {
      cluster = Cluster.start(MASTERS);
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (!shared && cluster != null) {
      cluster.close();
    }
  }

  /**
   * The nodes, in slot order.
   *
   * @throws IllegalStateException before the cluster has started
   */
  @Override
  public List<RedisProcess> nodes() {
    if (cluster == null) {
      throw new IllegalStateException("The cluster starts before the test class's first test");
    }
    return cluster.nodes;
  }

  /** All nodes as a comma list, the way Lineup is pointed at a cluster. */
  @Override
  public String uri() {
    return nodes().stream().map(RedisProcess::uri).collect(Collectors.joining(","));
  }

  /** True. */
  @Override
  public boolean isCluster() {
    return true;
  }

  @Override
  public int nodeOfSlot(int slot) {
    if (slot < 0 || slot >= CLUSTER_SLOTS) {
      throw new IllegalArgumentException("slot must be 0 to 16383, got " + slot);
    }
    return Math.min(slot / slotsPerNode(nodes().size()), nodes().size() - 1);
  }

  private static int slotsPerNode(int masters) {
    return CLUSTER_SLOTS / masters;
  }

  /** Running nodes that agree they form one cluster; closing stops them and deletes their data. */
  private static final class Cluster implements AutoCloseable {
    private final List<RedisProcess> nodes = new ArrayList<>();

    static Cluster start(int masters) {
      Cluster cluster = new Cluster();
      try {
        cluster.form(masters);
        return cluster;
      } catch (RuntimeException | Error e) {
        cluster.close();
        throw e;
      }
    }

    private void form(int masters) {
      for (int i = 0; i < masters; i++) {
        RedisProcess node =
            RedisProcess.builder()
                .setting("cluster-enabled", "yes")
                .setting("cluster-config-file", "nodes.conf")
                .setting("cluster-node-timeout", "5000")
                .build();
        // Listed before it starts, so that a node that fails to start is cleaned up too.
        nodes.add(node);
        node.start();
      }
      int per = slotsPerNode(masters);
      for (int i = 0; i < masters; i++) {
        int first = i * per;
        int last = i == masters - 1 ? CLUSTER_SLOTS - 1 : (i + 1) * per - 1;
        expectOk(command(nodes.get(i), "CLUSTER ADDSLOTSRANGE " + first + " " + last));
      }
      for (int i = 1; i < masters; i++) {
        expectOk(command(nodes.get(0), "CLUSTER MEET 127.0.0.1 " + nodes.get(i).port()));
      }
      long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
      while (!ready(masters)) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "Redis Cluster did not become ready: " + command(nodes.get(0), "CLUSTER INFO"));
        }
        pause();
      }
    }

    private boolean ready(int masters) {
      for (RedisProcess node : nodes) {
        String info = command(node, "CLUSTER INFO");
        if (!info.contains("cluster_state:ok")
            || !info.contains("cluster_known_nodes:" + masters)
            || !info.contains("cluster_slots_ok:" + CLUSTER_SLOTS)) {
          return false;
        }
      }
      return true;
    }

    @Override
    public void close() {
      nodes.forEach(RedisProcess::close);
    }

    private static String command(RedisProcess node, String inline) {
      try {
        return node.command(inline);
      } catch (IOException e) {
        throw new IllegalStateException("Cluster node " + node.uri() + " did not answer", e);
      }
    }

    private static void expectOk(String reply) {
      if (!reply.startsWith("+OK")) {
        throw new IllegalStateException("Cluster set-up refused: " + reply);
      }
    }

    /** The gossip between nodes takes its time; polling the state faster would gain nothing. */
    private static void pause() {
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while the cluster formed", e);
      }
    }
  }
}
