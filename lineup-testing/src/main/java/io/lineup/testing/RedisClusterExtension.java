package io.lineup.testing;

import io.lineup.redis.RedisProcess;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Gives a test class a real Redis Cluster of three masters on free ports, the 16384 slots split
 * between them, started before the first test and stopped after the last.
 */
public final class RedisClusterExtension implements BeforeAllCallback, AfterAllCallback {
  private static final int SLOTS = 16384;
  private static final long READY_TIMEOUT_MS = 30_000;
  private final int masters;
  private final List<RedisProcess> nodes = new ArrayList<>();

  private RedisClusterExtension(int masters) {
    this.masters = masters;
  }

  /** A cluster of three masters, no replicas. */
  public static RedisClusterExtension threeMasters() {
    return new RedisClusterExtension(3);
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    for (int i = 0; i < masters; i++) {
      nodes.add(
          RedisProcess.builder()
              .setting("cluster-enabled", "yes")
              .setting("cluster-config-file", "nodes.conf")
              .setting("cluster-node-timeout", "5000")
              .build()
              .start());
    }
    int per = SLOTS / masters;
    for (int i = 0; i < masters; i++) {
      int first = i * per;
      int last = i == masters - 1 ? SLOTS - 1 : (i + 1) * per - 1;
      expectOk(nodes.get(i).command("CLUSTER ADDSLOTSRANGE " + first + " " + last));
    }
    for (int i = 1; i < masters; i++) {
      expectOk(nodes.get(0).command("CLUSTER MEET 127.0.0.1 " + nodes.get(i).port()));
    }
    long deadline = System.currentTimeMillis() + READY_TIMEOUT_MS;
    while (!ready()) {
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException(
            "Redis Cluster did not become ready: " + nodes.get(0).command("CLUSTER INFO"));
      }
      Thread.sleep(50);
    }
  }

  private boolean ready() throws IOException {
    for (RedisProcess node : nodes) {
      String info = node.command("CLUSTER INFO");
      if (!info.contains("cluster_state:ok")
          || !info.contains("cluster_known_nodes:" + masters)
          || !info.contains("cluster_slots_ok:" + SLOTS)) {
        return false;
      }
    }
    return true;
  }

  private static void expectOk(String reply) {
    if (!reply.startsWith("+OK")) {
      throw new IllegalStateException("Cluster set-up refused: " + reply);
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    nodes.forEach(RedisProcess::close);
  }

  /** The nodes. */
  public List<RedisProcess> nodes() {
    return nodes;
  }

  /** All nodes as a comma list, the way Lineup is pointed at a cluster. */
  public String uri() {
    return nodes.stream().map(RedisProcess::uri).collect(Collectors.joining(","));
  }
}
