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
 * three equal ranges between them, without replicas or ({@link #threeMastersThreeReplicas()}) with
 * one replica each.
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
  /**
   * Longest wait for the nodes to agree on the cluster once they were told to meet: a few seconds
   * at rest, and a generous bound for a busy machine (issue 49). A set-up that does not finish in
   * it fails saying how long it waited and what the nodes said.
   */
  public static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

  private static final ExtensionContext.Namespace SHARED =
      ExtensionContext.Namespace.create(RedisClusterExtension.class);
  private static final int MASTERS = 3;

  /**
   * How long a node may be unreachable before the others count it as failed, for clusters with
   * replicas: short, so that a failover in a test takes a few seconds.
   */
  public static final Duration REPLICATED_NODE_TIMEOUT = Duration.ofMillis(2000);

  private final boolean shared;
  private final int replicasPerMaster;
  private Cluster cluster;

  private RedisClusterExtension(boolean shared, int replicasPerMaster) {
    this.shared = shared;
    this.replicasPerMaster = replicasPerMaster;
  }

  /** A cluster of three masters for this test class alone, stopped after its last test. */
  public static RedisClusterExtension threeMasters() {
    return new RedisClusterExtension(false, 0);
  }

  /**
   * A cluster of three masters with one replica each, for this test class alone, stopped after its
   * last test; a node counts as failed after {@link #REPLICATED_NODE_TIMEOUT}, after which its
   * replica takes over.
   */
  public static RedisClusterExtension threeMastersThreeReplicas() {
    return new RedisClusterExtension(false, 1);
  }

  /**
   * The test run's one cluster of three masters: started by the first test class that uses it,
   * reused by every later one, stopped when the run ends.
   */
  public static RedisClusterExtension sharedThreeMasters() {
    return new RedisClusterExtension(true, 0);
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    if (shared) {
      // The root context's store lives as long as the run and closes what it holds at its end.
      cluster =
          context
              .getRoot()
              .getStore(SHARED)
              .getOrComputeIfAbsent(
                  "three-masters", key -> Cluster.start(MASTERS, 0), Cluster.class);
    } else {
      cluster = Cluster.start(MASTERS, replicasPerMaster);
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

  /**
   * The replicas as started, the replica of master i of {@link #nodes()} at index i; empty for a
   * cluster without replicas. After a failover a replica may be a master: ask the node ({@code
   * ROLE}) when it matters.
   *
   * @throws IllegalStateException before the cluster has started
   */
  public List<RedisProcess> replicas() {
    nodes();
    return cluster.replicas;
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
    private final List<RedisProcess> replicas = new ArrayList<>();

    static Cluster start(int masters, int replicasPerMaster) {
      Cluster cluster = new Cluster();
      try {
        cluster.form(masters);
        if (replicasPerMaster > 0) {
          cluster.addReplicas();
        }
        return cluster;
      } catch (RuntimeException | Error e) {
        cluster.close();
        throw e;
      }
    }

    private static RedisProcess clusterNode(Duration nodeTimeout) {
      return RedisProcess.builder()
          .setting("cluster-enabled", "yes")
          .setting("cluster-config-file", "nodes.conf")
          .setting("cluster-node-timeout", Long.toString(nodeTimeout.toMillis()))
          // A replica synchronises at once instead of after the default 5 s pause.
          .setting("repl-diskless-sync-delay", "0")
          .build();
    }

    /**
     * Starts one replica per master, introduces it and makes it replicate its master, then waits
     * until every replica has synchronised.
     */
    private void addReplicas() {
      for (RedisProcess master : nodes) {
        // The masters learn the shorter timeout too, so that they notice a failed node as fast.
        expectOk(
            command(
                master, "CONFIG SET cluster-node-timeout " + REPLICATED_NODE_TIMEOUT.toMillis()));
      }
      for (RedisProcess master : nodes) {
        RedisProcess replica = clusterNode(REPLICATED_NODE_TIMEOUT);
        replicas.add(replica);
        replica.start();
        expectOk(command(replica, "CLUSTER MEET 127.0.0.1 " + master.port()));
      }
      long started = System.nanoTime();
      long deadline = started + READY_TIMEOUT.toNanos();
      for (int i = 0; i < nodes.size(); i++) {
        String masterId = command(nodes.get(i), "CLUSTER MYID").trim();
        String reply;
        // The replica must have heard of its master through the gossip before it can follow it.
        while (!(reply = command(replicas.get(i), "CLUSTER REPLICATE " + masterId))
            .startsWith("+OK")) {
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException(
                "Replica set-up refused after " + waitedMs(started) + " ms: " + reply);
          }
          pause();
        }
      }
      while (!replicasInSync()) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "Replicas did not synchronise in "
                  + waitedMs(started)
                  + " ms: "
                  + command(nodes.get(0), "CLUSTER NODES"));
        }
        pause();
      }
    }

    private boolean replicasInSync() {
      for (RedisProcess replica : replicas) {
        if (!command(replica, "INFO replication").contains("master_link_status:up")) {
          return false;
        }
      }
      for (RedisProcess node : nodes) {
        if (!command(node, "CLUSTER INFO").contains("cluster_known_nodes:" + 2 * nodes.size())) {
          return false;
        }
      }
      // A client may take its slot map from any node, replicas included: each must know every
      // node and every slot's master, or a client that asked a replica first finds no node for
      // some slots ("Cannot determine a partition for slot") until its next topology refresh.
      for (RedisProcess replica : replicas) {
        String info = command(replica, "CLUSTER INFO");
        if (!info.contains("cluster_state:ok")
            || !info.contains("cluster_known_nodes:" + 2 * nodes.size())
            || !info.contains("cluster_slots_ok:" + CLUSTER_SLOTS)) {
          return false;
        }
      }
      return true;
    }

    private void form(int masters) {
      for (int i = 0; i < masters; i++) {
        RedisProcess node = clusterNode(Duration.ofMillis(5000));
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
      long started = System.nanoTime();
      long deadline = started + READY_TIMEOUT.toNanos();
      while (!ready(masters)) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "Redis Cluster did not become ready in "
                  + waitedMs(started)
                  + " ms: "
                  + command(nodes.get(0), "CLUSTER INFO"));
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
      replicas.forEach(RedisProcess::close);
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

    private static long waitedMs(long startedNanos) {
      return Duration.ofNanos(System.nanoTime() - startedNanos).toMillis();
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
