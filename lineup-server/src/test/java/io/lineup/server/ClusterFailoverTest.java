package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.cluster.SlotHash;
import io.lineup.redis.RedisProcess;
import io.lineup.testing.RedisClusterExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two server processes on a Redis Cluster of three masters with one replica each: jobs spread over
 * 20 queues on every master are each acked exactly once, and when a master is killed in the middle
 * of a run its replica takes over, every durably published job is consumed and the plain ones lost
 * are counted.
 *
 * <p>The healthy run publishes 10,000 jobs, to keep {@code bin/test} short; the 50,000 (or
 * any other number) with {@code -Dlineup.faults.jobs=50000}.
 */
class ClusterFailoverTest {
  @RegisterExtension
  static RedisClusterExtension cluster = RedisClusterExtension.threeMastersThreeReplicas();

  @TempDir static Path folder;

  static final int HEALTHY_JOBS = Integer.getInteger("lineup.faults.jobs", 10_000);
  static final int FAILOVER_JOBS = 4_000;

  static MainProcess first;
  static MainProcess second;
  static List<Api> servers;

  @BeforeAll
  static void startTwoServers() {
    first = instance("first");
    second = instance("second");
    servers =
        List.of(
            new Api(
                first.awaitListening(Duration.ofSeconds(60)), LineupServerExtension.ADMIN_TOKEN),
            new Api(
                second.awaitListening(Duration.ofSeconds(60)), LineupServerExtension.ADMIN_TOKEN));
  }

  @AfterAll
  static void stopThem() {
    if (first != null) {
      first.close();
    }
    if (second != null) {
      second.close();
    }
  }

  private static MainProcess instance(String name) {
    return MainProcess.start(
        Map.of(
            "LINEUP_REDIS_URL",
            cluster.uri(),
            "LINEUP_ADMIN_TOKEN",
            LineupServerExtension.ADMIN_TOKEN,
            "LINEUP_PORT",
            "0",
            "LINEUP_HOST",
            "127.0.0.1",
            "LINEUP_DATA_DIR",
            folder.resolve(name).toString()));
  }

  @Test
  void jobsOverTwentyQueuesOnEveryMasterAreEachAckedExactlyOnceThroughTwoServers() {
    List<String> queues = twentyQueues("healthy");
    assertThat(mastersServing("faults", queues)).as("the queues live on every master").hasSize(3);
    JobLedger ledger = new JobLedger();
    long start = System.nanoTime();

    try (HttpLoad load = new HttpLoad(servers, "faults", queues, ledger)) {
      load.produce(4, HEALTHY_JOBS, 100, 0).work(8, 100);
      await()
          .atMost(Duration.ofMinutes(3))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> ledger.ackedCount() >= HEALTHY_JOBS);
    }

    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf(
        "Healthy cluster run: %d jobs in %.1f s (%.0f jobs/s); %s%n",
        HEALTHY_JOBS, seconds, HEALTHY_JOBS / seconds, ledger.summary());
    assertThat(ledger.confirmedCount()).isEqualTo(HEALTHY_JOBS);
    assertThat(ledger.ackedCount()).isEqualTo(HEALTHY_JOBS);
    assertThat(ledger.leasedMoreThanOnce()).as("no job was delivered twice").isZero();
    assertThat(ledger.ackedMoreThanOnce()).as("no job was acked twice").isZero();
  }

  @Test
  void aMasterKilledMidRunLosesNoDurablyPublishedJob() throws IOException {
    List<String> queues = twentyQueues("failover");
    JobLedger ledger = new JobLedger();
    RedisProcess doomed = cluster.nodes().get(0);

    try (HttpLoad load = new HttpLoad(servers, "faults", queues, ledger)) {
      // Every other batch waits for a replica; the workers start a little later so that jobs are
      // waiting in Redis when the master dies.
      load.produce(4, FAILOVER_JOBS, 50, 2);
      await().atMost(Duration.ofMinutes(1)).until(() -> load.published() >= FAILOVER_JOBS / 3);
      load.work(8, 50);
      await().atMost(Duration.ofMinutes(1)).until(() -> load.published() >= FAILOVER_JOBS / 2);
      doomed.kill();
      long killedAt = System.nanoTime();
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> replicaOfKilledMasterIsMaster(0));
      System.out.printf(
          "Failover: the replica took over %.1f s after the master was killed%n",
          (System.nanoTime() - killedAt) / 1e9);
      await()
          .atMost(Duration.ofMinutes(2))
          .pollInterval(Duration.ofMillis(200))
          .until(() ->
              load.published() >= FAILOVER_JOBS
                  && ledger.neverAcked(JobLedger.Publish.DURABLE).isEmpty()
                  && queuesEmpty(queues));
      System.out.printf(
          "Master failover run: %s; 503s and dropped connections: %d%n",
          ledger.summary(), load.unavailableAnswers());
    }

    Set<String> lostPlain = ledger.neverAcked(JobLedger.Publish.PLAIN);
    System.out.printf(
        "Lost after the failover: %d of %d plain publishes (answered 201 without waiting for a"
            + " replica), 0 of %d durable ones%n",
        lostPlain.size(),
        ledger.published(JobLedger.Publish.PLAIN).size(),
        ledger.published(JobLedger.Publish.DURABLE).size());
    assertThat(ledger.neverAcked(JobLedger.Publish.DURABLE))
        .as("every job published with durable_replicas=1 and answered 201 was consumed")
        .isEmpty();
    assertThat(ledger.published(JobLedger.Publish.DURABLE)).isNotEmpty();
    assertThat(lostPlain.size())
        .as("at most the plain jobs answered in the failover window are lost")
        .isLessThanOrEqualTo(ledger.published(JobLedger.Publish.PLAIN).size());
  }

  private static List<String> twentyQueues(String prefix) {
    return IntStream.range(0, 20).mapToObj(i -> String.format("%s-%02d", prefix, i)).toList();
  }

  /** The masters (by index in slot order) that serve the queues' slots. */
  private static Set<Integer> mastersServing(String namespace, List<String> queues) {
    Set<Integer> masters = new TreeSet<>();
    for (String queue : queues) {
      int slot = SlotHash.getSlot((namespace + "/" + queue).getBytes(StandardCharsets.UTF_8));
      masters.add(cluster.nodeOfSlot(slot));
    }
    return masters;
  }

  private static boolean replicaOfKilledMasterIsMaster(int master) {
    try {
      return cluster.replicas().get(master).command("INFO replication").contains("role:master");
    } catch (IOException e) {
      return false;
    }
  }

  private static boolean queuesEmpty(List<String> queues) {
    for (String queue : queues) {
      Reply reply = servers.get(1).get("/v1/queues/faults/" + queue);
      if (reply.status() == 404) {
        continue;
      }
      if (reply.status() != 200) {
        return false;
      }
      var counts = reply.json().get("counts");
      if (counts.get("ready").asLong()
              + counts.get("delayed").asLong()
              + counts.get("leased").asLong()
          > 0) {
        return false;
      }
    }
    return true;
  }
}
