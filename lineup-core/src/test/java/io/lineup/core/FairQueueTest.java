package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lineup.core.internal.store.KeySpace;
import io.lineup.core.model.JobState;
import io.lineup.core.model.KeyBacklogFullException;
import io.lineup.core.model.KeyCounts;
import io.lineup.core.model.KeySettings;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.Leases;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A fair queue serves its fairness keys in turn, by weight, with per-key limits, pauses and counts,
 * and a job's position is the order it is leased in. Runs on both topologies ({@link
 * FairQueueOnStandaloneTest}, {@link FairQueueOnClusterTest}).
 */
abstract class FairQueueTest extends EngineSuite {
  private static QueueName aFairQueue(Lineup lineup) {
    QueueName queue = aFreshQueue();
    lineup.configure(queue, QueueSettings.builder().fair(true).build());
    return queue;
  }

  private static NewJob aJobOf(String key, String text) {
    return aJob(text).key(key);
  }

  private static String keyOf(LeasedJob job) {
    return new String(job.payload(), StandardCharsets.UTF_8).split("/")[0];
  }

  /** Leases everything, one call of `batch` at a time, acking each, in lease order. */
  private static List<LeasedJob> drain(Lineup lineup, QueueName queue, int batch) {
    List<LeasedJob> leased = new ArrayList<>();
    Leases leases;
    while (!(leases = lineup.lease(queue, batch, Duration.ZERO)).isEmpty()) {
      for (LeasedJob job : leases.jobs()) {
        leased.add(job);
        lineup.ack(job);
      }
    }
    return leased;
  }

  @Test
  void aKeyThatArrivesBehindAnotherKeysBacklogIsServedWithinOneTurn() {
    try (Lineup lineup = anEngine()) {
      QueueName queue = aFairQueue(lineup);
      List<NewJob> backlog = new ArrayList<>();
      for (int i = 0; i < 500; i++) {
        backlog.add(aJobOf("big", "big/" + i));
      }
      lineup.publishAll(queue, backlog);
      lineup.lease(queue, 3, Duration.ZERO).jobs().forEach(lineup::ack);

      long position = lineup.publish(queue, aJobOf("small", "small/0")).position();

      assertThat(position).isLessThanOrEqualTo(1);
      List<String> next =
          lineup.lease(queue, 2, Duration.ZERO).jobs().stream().map(FairQueueTest::keyOf).toList();
      assertThat(next).contains("small");
    }
  }

  @Test
  void theWorkedExampleOfTheDocsIsTheOrderLeasesTake() {
    try (Lineup lineup = anEngine()) {
      QueueName queue = aFairQueue(lineup);
      lineup.fairness().configure(queue, "bolt", new KeySettings(2, null, null, null, null, false));
      for (int i = 1; i <= 6; i++) {
        lineup.publish(queue, aJobOf("acme", "a" + i));
      }
      for (int i = 1; i <= 3; i++) {
        lineup.publish(queue, aJobOf("bolt", "b" + i));
      }
      long c1 = lineup.publish(queue, aJobOf("crab", "c1")).position();

      List<String> order =
          drain(lineup, queue, 3).stream()
              .map(job -> new String(job.payload(), StandardCharsets.UTF_8))
              .toList();

      assertThat(c1).isEqualTo(2);
      assertThat(order).containsExactly("a1", "b1", "c1", "b2", "a2", "b3", "a3", "a4", "a5", "a6");
    }
  }

  @Test
  void keysOfEqualWeightTakeTurnsAndEachKeepsItsOwnOrder() {
    try (Lineup lineup = anEngine()) {
      QueueName queue = aFairQueue(lineup);
      for (String key : List.of("a", "b", "c")) {
        List<NewJob> jobs = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
          jobs.add(aJobOf(key, key + "/" + i));
        }
        lineup.publishAll(queue, jobs);
      }

      List<LeasedJob> leased = drain(lineup, queue, 4);

      assertThat(leased).hasSize(60);
      for (int turn = 0; turn < 20; turn++) {
        assertThat(leased.subList(turn * 3, turn * 3 + 3).stream().map(FairQueueTest::keyOf))
            .as("turn %d", turn)
            .containsExactlyInAnyOrder("a", "b", "c");
      }
      Map<String, Integer> next = new HashMap<>();
      for (LeasedJob job : leased) {
        String[] parts = new String(job.payload(), StandardCharsets.UTF_8).split("/");
        int expected = next.getOrDefault(parts[0], 0);
        assertThat(Integer.parseInt(parts[1])).as("order within %s", parts[0]).isEqualTo(expected);
        next.put(parts[0], expected + 1);
      }
    }
  }

  @Test
  void backloggedKeysShareTheLeasesByTheirWeights() {
    try (Lineup lineup = anEngine()) {
      QueueName queue = aFairQueue(lineup);
      for (int weight = 1; weight <= 4; weight++) {
        String key = "w" + weight;
        lineup
            .fairness()
            .configure(queue, key, new KeySettings(weight, null, null, null, null, false));
        List<NewJob> jobs = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
          jobs.add(aJobOf(key, key + "/" + i));
        }
        lineup.publishAll(queue, jobs);
      }

      Map<String, Integer> share = new HashMap<>();
      // 50 turns of 1 + 2 + 3 + 4 jobs: every key still has jobs waiting.
      for (int i = 0; i < 50; i++) {
        for (LeasedJob job : lineup.lease(queue, 10, Duration.ZERO).jobs()) {
          share.merge(keyOf(job), 1, Integer::sum);
          lineup.ack(job);
        }
      }

      for (int weight = 1; weight <= 4; weight++) {
        assertThat(share.get("w" + weight))
            .as("jobs of weight %d", weight)
            .isBetween(50 * weight - 1, 50 * weight + 1);
      }
    }
  }

  @Test
  void everyJobsPositionAtPublishIsHowManyJobsAreLeasedBeforeItWhenNothingElseArrives() {
    List<NewJob> workload = aMixedWorkload(new Random(11), 120);
    List<Long> atPublish = new ArrayList<>();
    try (Lineup lineup = anEngine()) {
      QueueName queue = aFairQueue(lineup);
      weighKeys(lineup, queue);
      for (NewJob job : workload) {
        atPublish.add(lineup.publish(queue, job).position());
      }
      // With everything published, the positions read now are the lease order itself.
      List<String> ids = new ArrayList<>();
      List<LeasedJob> peek = new ArrayList<>();
      long[] positions;
      {
        List<String> all = new ArrayList<>();
        for (int i = 0; i < workload.size(); i++) {
          all.add(workload.get(i).id());
        }
        positions = lineup.positions(queue, all);
        ids.addAll(all);
      }
      peek.addAll(drain(lineup, queue, 7));
      for (int i = 0; i < peek.size(); i++) {
        assertThat(positions[ids.indexOf(peek.get(i).id())])
            .as("position of the %d-th", i)
            .isEqualTo(i);
      }
    }
    // Each job's position at its publish: replay the workload up to it on a fresh queue, lease
    // everything, and find where it came.
    for (int k = 0; k < workload.size(); k += 7) {
      try (Lineup lineup = anEngine()) {
        QueueName queue = aFairQueue(lineup);
        weighKeys(lineup, queue);
        for (int i = 0; i <= k; i++) {
          lineup.publish(queue, workload.get(i));
        }
        List<String> order = drain(lineup, queue, 5).stream().map(LeasedJob::id).toList();
        assertThat((long) order.indexOf(workload.get(k).id()))
            .as("job %d's position at publish", k)
            .isEqualTo(atPublish.get(k));
      }
    }
  }

  private static void weighKeys(Lineup lineup, QueueName queue) {
    lineup.fairness().configure(queue, "k2", new KeySettings(2, null, null, null, null, false));
    lineup.fairness().configure(queue, "k3", new KeySettings(3, null, null, null, null, false));
  }

  /** Jobs of four keys (two weighed), mixed priorities, some without a key; caller-given ids. */
  private static List<NewJob> aMixedWorkload(Random random, int size) {
    List<NewJob> jobs = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      int which = random.nextInt(5);
      String key = which == 4 ? null : "k" + which;
      int priority = random.nextInt(4) == 0 ? 1 : 0;
      jobs.add(aJob("w/" + i).id("job-" + i).key(key).priority(priority));
    }
    return jobs;
  }

  @Test
  void aKeysConcurrencyLimitIsNeverExceededAcrossTwoInstances() throws Exception {
    QueueName queue;
    try (Lineup one = anEngine();
        Lineup two = anEngine()) {
      queue = aFairQueue(one);
      one.configure(queue, QueueSettings.builder().keyConcurrency(2).build());
      one.fairness().configure(queue, "vip", new KeySettings(null, 3, null, null, null, false));
      for (String key : List.of("a", "b", "vip")) {
        List<NewJob> jobs = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
          jobs.add(aJobOf(key, key + "/" + i));
        }
        one.publishAll(queue, jobs);
      }
      Map<String, AtomicInteger> holding = new ConcurrentHashMap<>();
      Map<String, Integer> most = new ConcurrentHashMap<>();
      AtomicInteger done = new AtomicInteger();
      List<Thread> consumers = new ArrayList<>();
      for (Lineup engine : List.of(one, two, one, two)) {
        consumers.add(
            Thread.ofVirtual()
                .start(() -> {
                  while (done.get() < 120) {
                    Leases leases = engine.lease(queue, 3, Duration.ofMillis(50));
                    for (LeasedJob job : leases.jobs()) {
                      String key = keyOf(job);
                      int now =
                          holding.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
                      most.merge(key, now, Math::max);
                    }
                    for (LeasedJob job : leases.jobs()) {
                      holding.get(keyOf(job)).decrementAndGet();
                      engine.ack(job);
                      done.incrementAndGet();
                    }
                  }
                }));
      }
      for (Thread consumer : consumers) {
        consumer.join(Duration.ofMinutes(2));
      }

      assertThat(done.get()).isEqualTo(120);
      assertThat(most.get("a")).isLessThanOrEqualTo(2);
      assertThat(most.get("b")).isLessThanOrEqualTo(2);
      assertThat(most.get("vip")).isLessThanOrEqualTo(3);
      assertThat(one.fairness().key(queue, "vip").leased()).isZero();
    }
  }

  @Test
  void aKeyLimitSetWhileJobsAreLeasedCountsTheJobsAlreadyLeased() {
    try (Lineup lineup = anEngine()) {
      QueueName queue = aFairQueue(lineup);
      List<NewJob> jobs = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        jobs.add(aJobOf("a", "a/" + i));
      }
      lineup.publishAll(queue, jobs);
      List<LeasedJob> first = lineup.lease(queue, 2, Duration.ZERO).jobs();
      assertThat(lineup.fairness().top(queue, KeyCounts.By.LEASED, 5).top())
          .containsExactly(new KeyCounts.KeyCount("a", 2));

      lineup.configure(queue, QueueSettings.builder().keyConcurrency(2).build());

      assertThat(lineup.fairness().key(queue, "a").leased()).isEqualTo(2);
      assertThat(lineup.lease(queue, 5, Duration.ZERO).jobs()).isEmpty();
      lineup.ack(first.get(0));
      assertThat(lineup.lease(queue, 5, Duration.ZERO).jobs()).hasSize(1);
      assertThat(lineup.fairness().top(queue, KeyCounts.By.LEASED, 5).top())
          .containsExactly(new KeyCounts.KeyCount("a", 2));
    }
  }

  @Test
  void aLeasePassesOverAKeyAtItsLimitAndTakesTheNextKeysJobs() {
    try (Lineup lineup = anEngine()) {
      QueueName queue = aFairQueue(lineup);
      lineup.configure(queue, QueueSettings.builder().keyConcurrency(1).build());
      lineup
          .fairness()
          .configure(
              queue, "slow", new KeySettings(null, null, 1, Duration.ofHours(1), null, false));
      lineup.publishAll(
          queue,
          List.of(
              aJobOf("a", "a/0"),
              aJobOf("a", "a/1"),
              aJobOf("slow", "slow/0"),
              aJobOf("slow", "slow/1"),
              aJobOf("b", "b/0")));

      List<LeasedJob> first = lineup.lease(queue, 10, Duration.ZERO).jobs();

      // One job per key: a's second waits for its first (concurrency 1), slow's second for the
      // next hour (rate 1 per hour).
      assertThat(first.stream().map(FairQueueTest::keyOf))
          .containsExactlyInAnyOrder("a", "slow", "b");
      assertThat(lineup.lease(queue, 10, Duration.ZERO).jobs()).isEmpty();
      LeasedJob a = first.stream().filter(j -> keyOf(j).equals("a")).findFirst().orElseThrow();
      lineup.ack(a);
      assertThat(lineup.lease(queue, 10, Duration.ZERO).jobs().stream().map(FairQueueTest::keyOf))
          .containsExactly("a");
      assertThat(lineup.fairness().key(queue, "slow").waiting()).isEqualTo(1);
    }
  }

  @Test
  void aPausedKeysJobsWaitWhileOtherKeysAreServedAndComeBackAtItsNextTurn() {
    try (Lineup lineup = anEngine()) {
      QueueName queue = aFairQueue(lineup);
      List<NewJob> jobs = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        jobs.add(aJobOf("paused", "paused/" + i));
        jobs.add(aJobOf("other", "other/" + i));
      }
      lineup.publishAll(queue, jobs);
      lineup.fairness().pause(queue, "paused");
      lineup.publish(queue, aJobOf("paused", "paused/5"));

      List<LeasedJob> served = drain(lineup, queue, 3);

      assertThat(served.stream().map(FairQueueTest::keyOf)).containsOnly("other").hasSize(5);
      assertThat(lineup.fairness().key(queue, "paused").waiting()).isEqualTo(6);
      assertThat(
              lineup
                  .get(queue, lineup.publish(queue, aJobOf("paused", "paused/6")).id())
                  .orElseThrow()
                  .state())
          .isEqualTo(JobState.READY);

      lineup.fairness().resume(queue, "paused");

      List<LeasedJob> after = drain(lineup, queue, 3);
      assertThat(after.stream().map(j -> new String(j.payload(), StandardCharsets.UTF_8)))
          .containsExactly(
              "paused/0", "paused/1", "paused/2", "paused/3", "paused/4", "paused/5", "paused/6");
      assertThat(lineup.fairness().key(queue, "paused").waiting()).isZero();
    }
  }

  @Test
  void aPublishPastAKeysMaximumWaitingIsRefusedWholeAndWritesNothing() {
    try (Lineup lineup = anEngine()) {
      QueueName queue = aFairQueue(lineup);
      lineup.configure(queue, QueueSettings.builder().keyMaxWaiting(3).build());
      lineup.publishAll(queue, List.of(aJobOf("t", "t/0"), aJobOf("t", "t/1")));

      assertThatThrownBy(() ->
              lineup.publishAll(
                  queue, List.of(aJobOf("u", "u/0"), aJobOf("t", "t/2"), aJobOf("t", "t/3"))))
          .isInstanceOfSatisfying(
              KeyBacklogFullException.class,
              e -> {
                assertThat(e.key()).isEqualTo("t");
                assertThat(e.maxWaiting()).isEqualTo(3);
                assertThat(e.waiting()).isEqualTo(2);
              });
      assertThat(lineup.stats(queue).ready()).isEqualTo(2);
      assertThat(lineup.publish(queue, aJobOf("t", "t/2")).created()).isTrue();
    }
  }

  @Test
  void countsNameTheKeysWithMostJobsAndDeletingAKeysWaitingJobsLeavesOthers() {
    try (Lineup lineup = anEngine()) {
      QueueName queue = aFairQueue(lineup);
      List<NewJob> jobs = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        jobs.add(aJobOf("many", "many/" + i));
      }
      for (int i = 0; i < 5; i++) {
        jobs.add(aJobOf("few", "few/" + i));
      }
      jobs.add(Fixtures.aDelayedJob("many/late", Duration.ofHours(1)).key("many"));
      lineup.publishAll(queue, jobs);
      LeasedJob one = lineup.lease(queue, 1, Duration.ZERO).jobs().get(0);

      KeyCounts byWaiting = lineup.fairness().top(queue, KeyCounts.By.WAITING, 10);
      assertThat(byWaiting.keysWaiting()).isEqualTo(2);
      assertThat(byWaiting.top().get(0).key()).isEqualTo("many");
      assertThat(lineup.fairness().top(queue, KeyCounts.By.LEASED, 10).top())
          .containsExactly(new KeyCounts.KeyCount(keyOf(one), 1));

      long deleted = lineup.fairness().deleteWaiting(queue, "many");

      assertThat(deleted).isEqualTo(keyOf(one).equals("many") ? 30 : 31);
      assertThat(lineup.fairness().key(queue, "many").waiting()).isZero();
      assertThat(lineup.stats(queue).delayed()).isZero();
      assertThat(drain(lineup, queue, 10).stream().map(FairQueueTest::keyOf)).containsOnly("few");
    }
  }

  @Test
  void eachKeysWaitingCountStaysExactWhileLeasesRunPastTheLogOfTakenKeys() {
    // Leases note the keys they take in a log that is folded into the counts once it holds
    // 128 KiB and before any count is read: counts read before, across and after folds all hold.
    // Keys of 100 characters fill the log every 1,300 jobs or so.
    try (Lineup lineup = anEngine()) {
      QueueName queue = aFairQueue(lineup);
      Map<String, Integer> waiting = new HashMap<>();
      List<NewJob> jobs = new ArrayList<>();
      Random random = new Random(52);
      String tail = "-" + "x".repeat(97);
      for (int i = 0; i < 6_000; i++) {
        // Key k0 has few jobs: the first leases empty it.
        String key = (i < 20 ? "k0" : "k" + (1 + random.nextInt(5))) + tail;
        jobs.add(aJobOf(key, key + "/" + i));
        waiting.merge(key, 1, Integer::sum);
      }
      for (int from = 0; from < jobs.size(); from += 500) {
        lineup.publishAll(queue, jobs.subList(from, from + 500));
      }

      for (int leased : new int[] {1_000, 4_500}) {
        int left = leased;
        while (left > 0) {
          for (LeasedJob job : lineup.lease(queue, Math.min(250, left), Duration.ZERO).jobs()) {
            waiting.merge(keyOf(job), -1, Integer::sum);
            left--;
          }
          assertThat(raw().strlen(takenLog(queue))).as("bytes in the log").isLessThan(128 * 1024);
        }
        for (Map.Entry<String, Integer> key : waiting.entrySet()) {
          assertThat(lineup.fairness().key(queue, key.getKey()).waiting())
              .as("%s after %,d more leased", key.getKey(), leased)
              .isEqualTo(key.getValue().longValue());
        }
        KeyCounts top = lineup.fairness().top(queue, KeyCounts.By.WAITING, 10);
        assertThat(top.keysWaiting())
            .isEqualTo(waiting.values().stream().filter(n -> n > 0).count());
        for (KeyCounts.KeyCount count : top.top()) {
          assertThat(count.count()).isEqualTo(waiting.get(count.key()).longValue());
        }
      }
      assertThat(waiting.get("k0" + tail)).isZero();
    }
  }

  /** The log of the keys leases took, not yet folded into the waiting counts (lib/fair.lua). */
  private static byte[] takenLog(QueueName queue) {
    return KeySpace.fairKey(queue, "taken").getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The lease of the jobs given back: long enough that a busy machine still releases the first ones
   * before it runs out, short enough to wait out for the others.
   */
  private static final Duration LEASE = Duration.ofSeconds(1);

  @Test
  void aReleasedOrExpiredJobGoesBackToItsPlaceInTheFairLine() throws Exception {
    // Without key limits a lease takes the front of the line; with one (never reached here) it
    // looks at each job's key first: both ways must keep a given-back job's place.
    for (Integer keyConcurrency : new Integer[] {null, 100}) {
      try (Lineup lineup = anEngine()) {
        QueueName queue = aFreshQueue();
        lineup.configure(
            queue, QueueSettings.builder().fair(true).keyConcurrency(keyConcurrency).build());
        List<NewJob> jobs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
          // A job without a key too: its lease keeps its score in its record.
          jobs.add(aJob("none/" + i).timeToRun(LEASE));
          for (String key : List.of("a", "b", "c")) {
            jobs.add(aJobOf(key, key + "/" + i).timeToRun(LEASE));
          }
        }
        List<String> ids = lineup.publishAll(queue, jobs).stream().map(p -> p.id()).toList();
        long[] positions = lineup.positions(queue, ids);
        List<String> expected = new ArrayList<>(ids);
        expected.sort((x, y) -> Long.compare(positions[ids.indexOf(x)], positions[ids.indexOf(y)]));

        List<LeasedJob> first = lineup.lease(queue, 6, Duration.ZERO).jobs();
        for (int i = first.size() - 1; i >= 0; i--) {
          lineup.release(first.get(i));
        }
        assertThat(lineup.positions(queue, ids)).as("after the release").containsExactly(positions);
        assertThat(lineup.lease(queue, 5, Duration.ZERO).jobs()).hasSize(5);
        // Their leases run out; the next lease puts them back first.
        Thread.sleep(LEASE.toMillis() + 100);

        List<String> order = drain(lineup, queue, 3).stream().map(LeasedJob::id).toList();

        assertThat(order).as("key_concurrency %s", keyConcurrency).isEqualTo(expected);
      }
    }
  }

  @Test
  void aJobRetriedOrFallenDueIsGivenBackToItsNewPlace() throws Exception {
    try (Lineup lineup = anEngine()) {
      QueueName queue = aFairQueue(lineup);
      List<NewJob> jobs = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        for (String key : List.of("a", "b", "c")) {
          jobs.add(aJobOf(key, key + "/" + i));
        }
      }
      jobs.add(Fixtures.aDelayedJob("d/0", Duration.ofMillis(50)).key("d"));
      lineup.publishAll(queue, jobs);
      LeasedJob retried = lineup.lease(queue, 1, Duration.ZERO).jobs().get(0);
      lineup.nack(queue, retried.id(), retried.token(), "again", Duration.ZERO);
      Thread.sleep(100); // d/0 falls due: the next lease moves it to the line

      List<LeasedJob> all = lineup.lease(queue, 20, Duration.ZERO).jobs();
      for (int i = all.size() - 1; i >= 0; i--) {
        lineup.release(all.get(i));
      }
      List<String> again = drain(lineup, queue, 4).stream().map(LeasedJob::id).toList();

      assertThat(all).hasSize(10);
      assertThat(again).isEqualTo(all.stream().map(LeasedJob::id).toList());
      assertThat(all.get(0).id()).isNotEqualTo(retried.id());
      assertThat(all.stream().map(FairQueueTest::keyOf)).contains("d");
    }
  }

  @Test
  void aRespawnedDeadLetterAndATracedJobKeepTheirKeysAndTakeTheirKeysTurns() {
    try (Lineup lineup = anEngine()) {
      QueueName queue = aFairQueue(lineup);
      String dead = lineup.publish(queue, aJobOf("a", "a/dead").maxAttempts(1)).id();
      lineup.nack(lineup.lease(queue, 1, Duration.ZERO).jobs().get(0), "boom");
      assertThat(lineup.get(queue, dead).orElseThrow().state()).isEqualTo(JobState.DEAD);
      assertThat(lineup.fairness().key(queue, "a").waiting()).isZero();

      String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
      String traced =
          lineup
              .publishAll(
                  queue,
                  List.of(
                      aJobOf("b", "b/0"),
                      aJobOf("b", "b/1"),
                      aJobOf("c", "c/0").traceparent(traceparent)))
              .get(2)
              .id();
      assertThat(lineup.respawn(queue, List.of(dead), null)).isEqualTo(1);

      assertThat(lineup.get(queue, dead).orElseThrow().key()).isEqualTo("a");
      assertThat(lineup.get(queue, traced).orElseThrow().key()).isEqualTo("c");
      assertThat(lineup.fairness().key(queue, "a").waiting()).isEqualTo(1);
      List<LeasedJob> order = drain(lineup, queue, 1);
      // Each key's first job in the first turn, in any order among them; b's second job after.
      assertThat(order.subList(0, 3).stream().map(FairQueueTest::keyOf))
          .containsExactlyInAnyOrder("a", "b", "c");
      assertThat(order.get(3).id()).isNotEqualTo(dead).isNotEqualTo(traced);
      LeasedJob tracedLease = order.stream().filter(j -> j.id().equals(traced)).findFirst().get();
      assertThat(tracedLease.trace().traceparent()).isEqualTo(traceparent);
      assertThat(lineup.fairness().key(queue, "a").waiting()).isZero();
    }
  }
}
