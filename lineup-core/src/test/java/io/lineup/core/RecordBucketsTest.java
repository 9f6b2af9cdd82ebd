package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lineup.consumer.WorkerOptions;
import io.lineup.core.internal.store.KeySpace;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.JobState;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.Limits;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Where job records live: generated ids in hashes of 62 consecutive arrivals, caller-given ids in
 * the queue's jobs hash (docs/engine.md, data layout). The jobs here cross many bucket boundaries
 * (the first at arrival 62, id {@code ~10}) and mix both kinds of id, so one lease or ack call
 * spans several hashes.
 *
 * <p>Runs on both topologies ({@link RecordBucketsOnStandaloneTest}, {@link
 * RecordBucketsOnClusterTest}).
 */
abstract class RecordBucketsTest extends EngineSuite {
  /** Arrivals per records hash of generated ids: one base-62 digit. */
  private static final int BUCKET = 62;

  @Test
  void generatedIdsAreKeptInHashesOfConsecutiveArrivalsAndCallerIdsInTheJobsHash() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine()) {
      List<String> ids = publishMixed(lineup, queue, 4_000, 0);
      List<String> generated = ids.stream().filter(id -> id.startsWith("~")).toList();
      assertThat(generated).hasSize(4_000).startsWith("~1");
      // Arrival numbers are base 62: the 62nd generated id is the first with two digits.
      assertThat(generated.get(BUCKET - 1)).isEqualTo("~10");
      assertThat(generated.get(3_844 - 1)).isEqualTo("~100");

      assertThat(hashLength(KeySpace.recordKey(queue, "~1"))).isEqualTo(BUCKET - 1);
      assertThat(KeySpace.recordKey(queue, "~z")).isEqualTo(KeySpace.recordKey(queue, "~1"));
      assertThat(hashLength(KeySpace.recordKey(queue, "~10"))).isEqualTo(BUCKET);
      assertThat(KeySpace.recordKey(queue, "~1z")).isEqualTo(KeySpace.recordKey(queue, "~10"));
      assertThat(hashLength(KeySpace.recordKey(queue, "~100"))).isEqualTo(BUCKET);
      assertThat(hashLength(KeySpace.queueKeys(queue)[KeySpace.JOBS_INDEX])).isZero();
      assertThat(keyText(KeySpace.recordKey(queue, "~100"))).endsWith(":jobs:~10.");
      assertThat(keyText(KeySpace.recordKey(queue, "~1"))).endsWith(":jobs:~.");

      assertThat(lineup.exists(queue, "~zz")).isTrue();
      assertThat(lineup.exists(queue, "~100")).isTrue();
      assertThat(lineup.exists(queue, "~1zz")).as("not published yet").isFalse();
      assertThat(lineup.get(queue, "~100").orElseThrow().position()).isEqualTo(3_844 - 1);
    }
  }

  @Test
  void waitingRecordsAreKeptAsListpacksAndALeaseTurnsItsHashIntoATable() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine()) {
      // Small payloads: the leased records would fit a listpack too.
      publishMixed(lineup, queue, 3 * BUCKET, 0);
      byte[] first = KeySpace.recordKey(queue, "~10");
      byte[] second = KeySpace.recordKey(queue, "~20");
      assertThat(raw().objectEncoding(first)).isEqualTo("listpack");
      assertThat(raw().objectEncoding(second)).isEqualTo("listpack");

      List<LeasedJob> leased = lineup.lease(queue, BUCKET + 10, Duration.ZERO).jobs();
      assertThat(leased).hasSize(BUCKET + 10);
      assertThat(raw().objectEncoding(first)).as("leased from").isEqualTo("hashtable");
      assertThat(raw().objectEncoding(second)).as("not leased from").isEqualTo("listpack");
      assertThat(hashLength(first)).as("no field of its own left behind").isEqualTo(BUCKET);
      assertThat(raw().hexists(first, bytes(" "))).isFalse();
      for (LeasedJob job : leased) {
        lineup.ack(job, null);
      }
      assertThat(lineup.get(queue, "~10").orElseThrow().state()).isEqualTo(JobState.DONE);
      assertThat(lineup.get(queue, "~20").orElseThrow().state()).isEqualTo(JobState.READY);
    }
  }

  @Test
  void aWorkerDrainsJobsAcrossBucketsAndMixedIdsAndLeavesNoRecordBehindWithoutRetention() {
    QueueName queue = aFreshQueue();
    Set<String> handled = ConcurrentHashMap.newKeySet();
    AtomicInteger deliveries = new AtomicInteger();
    try (Lineup lineup = anEngine()) {
      lineup.configure(queue, QueueSettings.builder().retention(Duration.ZERO).build());
      List<String> ids = publishMixed(lineup, queue, 4_000, 7);
      assertThat(hashLength(KeySpace.queueKeys(queue)[KeySpace.JOBS_INDEX]))
          .as("caller-given ids")
          .isEqualTo(ids.size() - 4_000);
      try (Worker worker =
          lineup
              .worker(
                  queue,
                  job -> {
                    deliveries.incrementAndGet();
                    handled.add(job.id());
                    return null;
                  },
                  WorkerOptions.defaults().withConcurrency(64))
              .start()) {
        await().atMost(Duration.ofSeconds(30)).until(() -> handled.size() == ids.size());
      }
      assertThat(handled).containsExactlyInAnyOrderElementsOf(ids);
      assertThat(deliveries.get()).as("each job delivered once").isEqualTo(ids.size());
      assertThat(lineup.stats(queue).counters().get("acked")).isEqualTo(ids.size());
      for (String id : List.of("~1", "~100", "caller-7")) {
        assertThat(raw().exists(KeySpace.recordKey(queue, id))).as(id).isZero();
      }
    }
  }

  @Test
  void finishedAndDeadRecordsInBucketsAreFoundAndDroppedByRetentionAndPurge() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine()) {
      lineup.configure(queue, QueueSettings.builder().maxAttempts(1).build());
      List<String> ids = publishMixed(lineup, queue, 4_000, 0);
      int acked = 0;
      List<String> dead = new ArrayList<>();
      while (true) {
        List<LeasedJob> jobs = lineup.lease(queue, 1_000, Duration.ZERO).jobs();
        if (jobs.isEmpty()) {
          break;
        }
        for (LeasedJob job : jobs) {
          // Every tenth job fails for good, the rest succeed.
          if (Integer.parseInt(Fixtures.text(job.payload()).substring(1)) % 10 == 0) {
            lineup.nack(job, "broken");
            dead.add(job.id());
          } else {
            lineup.ack(job, job.payload());
            acked++;
          }
        }
      }
      assertThat(acked + dead.size()).isEqualTo(ids.size());
      assertThat(lineup.get(queue, "~100").orElseThrow().state()).isEqualTo(JobState.DONE);
      assertThat(lineup.get(queue, "~101").orElseThrow().result()).isEqualTo(bytes("j3845"));
      assertThat(lineup.get(queue, dead.get(dead.size() - 1)).orElseThrow().state())
          .isEqualTo(JobState.DEAD);
      assertThat(lineup.deadLetters(queue, 0, 1_000).total()).isEqualTo(dead.size());

      assertThat(lineup.purgeDead(queue)).isEqualTo(dead.size());
      assertThat(dead).noneMatch(id -> lineup.exists(queue, id));
      lineup.configure(queue, QueueSettings.builder().retention(Duration.ofMillis(1)).build());
      sweptUntil(() -> raw().exists(KeySpace.recordKey(queue, "~100")) == 0);
      assertThat(raw().exists(KeySpace.recordKey(queue, "~1"))).isZero();
      assertThat(ids).noneMatch(id -> lineup.exists(queue, id));
    }
  }

  @Test
  void recordsThatEarlierBuildsKeptInHashesOf3844AreFoundSettledAndMovedWhenNextWritten() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine()) {
      lineup.publish(queue, aJob("holder").uniqueKey("order-1", Duration.ofMinutes(5)));
      List<String> ids = publishMixed(lineup, queue, 200, 0);
      List<String> all = new ArrayList<>(List.of("~1"));
      all.addAll(ids);
      all.forEach(id -> moveToLegacyBucket(queue, id));
      assertThat(hashLength(KeySpace.recordKey(queue, "~10"))).isZero();
      assertThat(hashLength(KeySpace.legacyRecordKey(queue, "~10").orElseThrow()))
          .isEqualTo(all.size());

      assertThat(lineup.exists(queue, "~10")).isTrue();
      assertThat(lineup.exists(queue, "~zzz")).isFalse();
      JobInfo waiting = lineup.get(queue, "~10").orElseThrow();
      assertThat(waiting.state()).isEqualTo(JobState.READY);
      assertThat(waiting.position()).isEqualTo(BUCKET - 1);
      assertThat(Fixtures.text(waiting.payload())).isEqualTo("j61");
      assertThat(
              lineup.publish(queue, aJob("again").uniqueKey("order-1", Duration.ofMinutes(5))).id())
          .as("the unique key's holder is found in the earlier hash")
          .isEqualTo("~1");
      assertThat(lineup.cancel(queue, ids.get(150))).isEqualTo(JobState.READY);

      List<LeasedJob> leased = lineup.lease(queue, 100, Duration.ZERO).jobs();
      assertThat(leased).hasSize(100);
      for (LeasedJob job : leased) {
        lineup.ack(job, null);
      }
      for (LeasedJob job : leased) {
        assertThat(raw().hexists(KeySpace.recordKey(queue, job.id()), bytes(job.id())))
            .as("%s moved to its own hash", job.id())
            .isTrue();
        assertThat(legacyHolds(queue, job.id())).as(job.id()).isFalse();
      }
      assertThat(lineup.get(queue, leased.get(99).id()).orElseThrow().state())
          .isEqualTo(JobState.DONE);
      assertThat(lineup.get(queue, ids.get(150)).orElseThrow().state())
          .isEqualTo(JobState.CANCELLED);

      lineup.configure(queue, QueueSettings.builder().retention(Duration.ofMillis(1)).build());
      List<LeasedJob> rest = lineup.lease(queue, 1_000, Duration.ZERO).jobs();
      assertThat(rest).hasSize(all.size() - 100 - 1);
      rest.forEach(job -> lineup.ack(job, null));
      sweptUntil(() -> all.stream().noneMatch(id -> lineup.exists(queue, id)));
      assertThat(all).noneMatch(id -> legacyHolds(queue, id));
    }
  }

  /**
   * Runs the retention sweep now and waits for the condition: an engine with its background loops
   * on sweeps every registered queue once as soon as it starts, so the test does not wait for the
   * test engine's next round (retention runs every 5 s). That engine's own rounds go on meanwhile.
   */
  private void sweptUntil(Callable<Boolean> condition) {
    try (Lineup sweeper = anEngine()) {
      await()
          .atMost(Duration.ofSeconds(20))
          .pollDelay(Duration.ZERO)
          .pollInterval(Duration.ofMillis(20))
          .until(condition);
    }
  }

  /** Puts a record where builds up to November 2026 kept it, as if one of them had written it. */
  private void moveToLegacyBucket(QueueName queue, String id) {
    byte[] field = bytes(id);
    byte[] record = raw().hget(KeySpace.recordKey(queue, id), field);
    assertThat(record).as(id).isNotNull();
    raw().hset(KeySpace.legacyRecordKey(queue, id).orElseThrow(), field, record);
    raw().hdel(KeySpace.recordKey(queue, id), field);
  }

  private boolean legacyHolds(QueueName queue, String id) {
    return raw().hexists(KeySpace.legacyRecordKey(queue, id).orElseThrow(), bytes(id));
  }

  /**
   * Publishes {@code generated} jobs without ids, payloads {@code j1}, {@code j2}, …, and after
   * every {@code callerEvery}-th of them (0: never) one with a caller-given id, in bulks of 1,000;
   * returns every id in publish order.
   */
  private static List<String> publishMixed(
      Lineup lineup, QueueName queue, int generated, int callerEvery) {
    List<NewJob> jobs = new ArrayList<>();
    for (int i = 1; i <= generated; i++) {
      jobs.add(aJob("j" + i));
      if (callerEvery > 0 && i % callerEvery == 0) {
        jobs.add(aJob("c" + i).id("caller-" + i));
      }
    }
    List<String> ids = new ArrayList<>();
    for (int from = 0; from < jobs.size(); from += Limits.MAX_BATCH) {
      List<NewJob> bulk = jobs.subList(from, Math.min(jobs.size(), from + Limits.MAX_BATCH));
      lineup.publishAll(queue, bulk).forEach(result -> ids.add(result.id()));
    }
    return ids;
  }

  private long hashLength(byte[] key) {
    return raw().hlen(key);
  }

  private static String keyText(byte[] key) {
    return new String(key, StandardCharsets.UTF_8);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
