package io.lineup.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.lineup.redis.RedisProcess;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * Runs small test classes that use the extensions, as JUnit runs any test class, and checks that
 * their Redis processes are stopped and their data folders deleted once they end.
 */
class ExtensionsLeaveNothingBehindTest {

  @Test
  void aServerIsStoppedAndItsDataFolderDeletedAfterItsTestClass() {
    run(UsesAServer.class);

    assertThat(UsesAServer.seen).hasSize(1);
    assertGone(UsesAServer.seen.get(0));
  }

  @Test
  void oneSharedClusterServesEveryTestClassOfARunAndIsGoneWhenTheRunEnds() {
    EngineTestKit.engine("junit-jupiter")
        .selectors(selectClass(UsesTheSharedCluster.class), selectClass(AlsoUsesIt.class))
        .execute()
        .testEvents()
        .assertStatistics(stats -> stats.succeeded(2).failed(0));

    assertThat(UsesTheSharedCluster.seen).hasSize(3);
    assertThat(AlsoUsesIt.seen).as("the same nodes").isEqualTo(UsesTheSharedCluster.seen);
    UsesTheSharedCluster.seen.forEach(ExtensionsLeaveNothingBehindTest::assertGone);
  }

  @Test
  void aClusterOfItsOwnIsGoneAfterItsTestClass() {
    run(UsesItsOwnCluster.class);

    assertThat(UsesItsOwnCluster.seen).hasSize(3);
    UsesItsOwnCluster.seen.forEach(ExtensionsLeaveNothingBehindTest::assertGone);
  }

  private static void run(Class<?> testClass) {
    EngineTestKit.engine("junit-jupiter")
        .selectors(selectClass(testClass))
        .execute()
        .testEvents()
        .assertStatistics(stats -> stats.succeeded(1).failed(0));
  }

  private static void assertGone(RedisProcess node) {
    assertThat(node.isRunning()).as("%s is running", node.uri()).isFalse();
    assertThat(node.dataDir()).as("data folder of %s", node.uri()).doesNotExist();
  }

  /** Answers PING: the server was up while the test ran. */
  private static void assertAnswers(RedisProcess node) throws IOException {
    assertThat(node.command("PING")).isEqualTo("+PONG");
  }

  // The classes below are run by the tests above only: surefire skips nested classes.

  static class UsesAServer {
    @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();
    static final List<RedisProcess> seen = new ArrayList<>();

    @Test
    void runs() throws IOException {
      seen.addAll(redis.nodes());
      assertAnswers(redis.process());
      assertThat(redis.process().dataDir()).exists();
    }
  }

  static class UsesTheSharedCluster {
    @RegisterExtension
    static RedisClusterExtension cluster = RedisClusterExtension.sharedThreeMasters();

    static final List<RedisProcess> seen = new ArrayList<>();

    @Test
    void runs() throws IOException {
      seen.addAll(cluster.nodes());
      for (RedisProcess node : cluster.nodes()) {
        assertAnswers(node);
      }
    }
  }

  static class AlsoUsesIt {
    @RegisterExtension
    static RedisClusterExtension cluster = RedisClusterExtension.sharedThreeMasters();

    static final List<RedisProcess> seen = new ArrayList<>();

    @Test
    void runs() throws IOException {
      seen.addAll(cluster.nodes());
      assertAnswers(cluster.nodes().get(0));
    }
  }

  static class UsesItsOwnCluster {
    @RegisterExtension static RedisClusterExtension cluster = RedisClusterExtension.threeMasters();
    static final List<RedisProcess> seen = new ArrayList<>();

    @Test
    void runs() throws IOException {
      seen.addAll(cluster.nodes());
      assertThat(cluster.nodeOfSlot(0)).isZero();
      assertThat(cluster.nodeOfSlot(TestRedis.CLUSTER_SLOTS - 1)).isEqualTo(2);
    }
  }
}
