package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.lettuce.core.cluster.SlotHash;
import io.lineup.dispatch.EndpointKey;
import io.lineup.redis.RedisProcess;
import io.lineup.rooms.RoomKey;
import io.lineup.testing.RedisClusterExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
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
 * are counted. Dispatched tasks and a waiting room whose keys live on a killed master carry on
 * after the failover without a restart of either server.
 *
 * <p>The healthy run publishes 5,000 jobs, 250 a queue, enough for every queue's consumers on both
 * servers to race for its jobs; {@code -Dlineup.faults.full=true} makes it 50,000 (the run that
 * docs/guarantees.md measures), and {@code -Dlineup.faults.jobs=N} any count.
 */
class ClusterFailoverTest {
  @RegisterExtension
  static RedisClusterExtension cluster = RedisClusterExtension.threeMastersThreeReplicas();

  @TempDir static Path folder;

  static final boolean FULL = Boolean.getBoolean("lineup.faults.full");
  static final int HEALTHY_JOBS = Integer.getInteger("lineup.faults.jobs", FULL ? 50_000 : 5_000);
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
                first.awaitListening(MainProcess.START_TIMEOUT), LineupServerExtension.ADMIN_TOKEN),
            new Api(
                second.awaitListening(MainProcess.START_TIMEOUT),
                LineupServerExtension.ADMIN_TOKEN));
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
    return MainProcess.serverOn(cluster.uri(), folder.resolve(name));
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

  @Test
  void dispatchedTasksAndAWaitingRoomOnAKilledMasterCarryOnAfterTheFailover() throws Exception {
    int master = 1;
    Api api = servers.get(0);
    try (TestTarget target = TestTarget.start()) {
      target.latency(100);
      String ep =
          DispatchFixtures.endpoint(
              api,
              "faults",
              nameOnMaster("ep", EndpointKey.QUEUE_PREFIX, master),
              target.url(),
              "\"concurrency\": 4, \"attempt_timeout_ms\": 5000");
      String room =
          RoomFixtures.room(
              api,
              "faults",
              nameOnMaster("room", RoomKey.QUEUE_PREFIX, master),
              "\"max_active\": 1000, \"grace_ms\": 3600000");
      List<String> tasksBefore = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        tasksBefore.add(DispatchFixtures.submit(servers.get(i % 2), ep, "{}"));
      }
      Map<String, String> passesBefore = new LinkedHashMap<>();
      for (int i = 0; i < 10; i++) {
        JsonNode ticket = RoomFixtures.join(servers.get(i % 2), room, "{}");
        passesBefore.put(ticket.path("ticket").asText(), awaitPass(api, room, ticket));
      }

      cluster.nodes().get(master).kill();
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> replicaOfKilledMasterIsMaster(master));

      List<String> tasksAfter = new ArrayList<>();
      Map<String, String> passesAfter = new LinkedHashMap<>();
      for (int i = 0; i < 10; i++) {
        Api through = servers.get(i % 2);
        tasksAfter.add(
            retriedWhileUnavailable(() -> through.post(ep + "/tasks", "{}"), 202).field("id"));
        JsonNode ticket =
            retriedWhileUnavailable(() -> through.post(room + "/tickets", "{}"), 201).json();
        passesAfter.put(ticket.path("ticket").asText(), awaitPass(through, room, ticket));
      }

      for (String id : tasksAfter) {
        JsonNode task = DispatchFixtures.awaitEnd(servers.get(1), ep, id);
        assertThat(task.path("status").asText()).as(task.toString()).isEqualTo("succeeded");
      }
      for (Map.Entry<String, String> pass : passesAfter.entrySet()) {
        for (Api each : servers) {
          assertThat(verify(each, room, pass.getValue()).path("ticket").asText())
              .isEqualTo(pass.getKey());
        }
      }
      int succeededBefore = 0;
      for (String id : tasksBefore) {
        JsonNode task = DispatchFixtures.awaitEnd(servers.get(1), ep, id);
        String status = task.path("status").asText();
        // awaitEnd already waited out queued and running: a task ends well, or its submit was
        // among the last writes the failover dropped (then it is unknown, never failed).
        assertThat(status.equals("succeeded") || task.path("error").asText().equals("not_found"))
            .as("succeeded, or lost with the failover: %s", task)
            .isTrue();
        succeededBefore += status.equals("succeeded") ? 1 : 0;
      }
      long passesStillValid =
          passesBefore.values().stream()
              .filter(p -> verify(api, room, p).path("valid").asBoolean())
              .count();
      System.out.printf(
          "Master failover under dispatch and a waiting room: %d of %d tasks submitted before it"
              + " succeeded, %d of %d after it; %d of %d passes issued before it still verify, %d of"
              + " %d after it%n",
          succeededBefore,
          tasksBefore.size(),
          tasksAfter.size(),
          tasksAfter.size(),
          passesStillValid,
          passesBefore.size(),
          passesAfter.size(),
          passesAfter.size());
    }
  }

  /** A name whose endpoint or room queue lives on this master's slots. */
  private static String nameOnMaster(String stem, String queuePrefix, int master) {
    for (int i = 0; ; i++) {
      String name = stem + "-" + i;
      if (mastersServing("faults", List.of(queuePrefix + name)).equals(Set.of(master))) {
        return name;
      }
    }
  }

  private static String awaitPass(Api api, String room, JsonNode joined) {
    String ticket = joined.path("ticket").asText();
    JsonNode[] view = {joined};
    await()
        .atMost(Duration.ofSeconds(10))
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(20))
        .until(() -> {
          view[0] = RoomFixtures.poll(api, room, ticket);
          return view[0].path("status").asText().equals("admitted");
        });
    return view[0].path("pass").asText();
  }

  private static JsonNode verify(Api api, String room, String pass) {
    String roomName = room.substring("/v1/rooms/".length());
    return api.post(
            "/v1/passes/verify", "{\"room\": \"" + roomName + "\", \"pass\": \"" + pass + "\"}")
        .json();
  }

  /**
   * Calls until the answer is {@code expected}, the first time at once; 503 and dropped connections
   * are tried again.
   */
  private static Reply retriedWhileUnavailable(Supplier<Reply> call, int expected) {
    Reply[] last = new Reply[1];
    await()
        .atMost(Duration.ofSeconds(30))
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(200))
        .ignoreExceptionsMatching(
            e -> e instanceof UncheckedIOException || e instanceof IllegalStateException)
        .until(() -> {
          last[0] = call.get();
          assertThat(last[0].status()).as(last[0].toString()).isIn(expected, 503);
          return last[0].status() == expected;
        });
    return last[0];
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
