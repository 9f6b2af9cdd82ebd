package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.core.internal.store.KeySpace;
import io.lineup.core.model.AckRequest;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.QueueName;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The leased set's encoding. A lease of more than 16 jobs makes it a skiplist when it is not one
 * (lease.lua): at once for a consumer that acks each whole batch with its next lease (the acks
 * empty the set, the lease fills it again), and for good for one that holds fewer than 128 jobs at
 * a time; with no trace of how. Smaller leases leave it as Redis made it.
 */
abstract class LeasedSetTest extends EngineSuite {
  private static final int BATCH = 200;

  @Test
  void batchesLeasedIntoAnEmptyLeasedSetLeaveExactlyTheirJobsThere() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine(options -> options.maintenance(false))) {
      List<NewJob> jobs = new ArrayList<>();
      for (int i = 0; i < 3 * BATCH; i++) {
        jobs.add(aJob("j" + i));
      }
      for (int from = 0; from < jobs.size(); from += 100) {
        lineup.publishAll(queue, jobs.subList(from, from + 100));
      }
      byte[] leasedKey = KeySpace.queueKeys(queue)[KeySpace.LEASED_INDEX];

      List<AckRequest> acks = List.of();
      int acked = 0;
      for (int round = 0; round < 3; round++) {
        AcksThenLeases answer = lineup.ackThenLease(queue, acks, BATCH, Duration.ZERO);
        acked += answer.acks().size();
        List<LeasedJob> leased = answer.leases().jobs();
        assertThat(leased).hasSize(BATCH);
        assertThat(raw().objectEncoding(leasedKey)).isEqualTo("skiplist");
        assertThat(raw().zcard(leasedKey)).as("only the leased jobs").isEqualTo(BATCH);
        assertThat(raw().zrange(leasedKey, 0, -1))
            .extracting(member -> new String(member, java.nio.charset.StandardCharsets.UTF_8))
            .containsExactlyInAnyOrderElementsOf(leased.stream().map(LeasedJob::id).toList());
        acks = leased.stream().map(AckRequest::of).toList();
      }
      lineup.ackAll(queue, acks);
      assertThat(acked + acks.size()).isEqualTo(3 * BATCH);
      assertThat(raw().exists(leasedKey)).isZero();
      assertThat(lineup.stats(queue).counters().get("acked")).isEqualTo(3L * BATCH);
    }
  }

  @Test
  void aLeaseOfAtMost16JobsLeavesTheLeasedSetAListpack() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine(options -> options.maintenance(false))) {
      lineup.publishAll(queue, List.of(aJob("a"), aJob("b"), aJob("c")));
      byte[] leasedKey = KeySpace.queueKeys(queue)[KeySpace.LEASED_INDEX];

      assertThat(lineup.lease(queue, 3, Duration.ZERO).jobs()).hasSize(3);

      assertThat(raw().objectEncoding(leasedKey)).isEqualTo("listpack");
      assertThat(raw().zcard(leasedKey)).isEqualTo(3);
    }
  }

  @Test
  void aLeaseOfMoreThan16JobsMakesASmallLeasedSetASkiplistHoldingOnlyTheLeasedJobs() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine(options -> options.maintenance(false))) {
      List<NewJob> jobs = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        jobs.add(aJob("j" + i));
      }
      lineup.publishAll(queue, jobs);
      byte[] leasedKey = KeySpace.queueKeys(queue)[KeySpace.LEASED_INDEX];
      List<LeasedJob> leased = new ArrayList<>(lineup.lease(queue, 10, Duration.ZERO).jobs());
      assertThat(raw().objectEncoding(leasedKey)).isEqualTo("listpack");

      leased.addAll(lineup.lease(queue, 20, Duration.ZERO).jobs());

      assertThat(raw().objectEncoding(leasedKey)).isEqualTo("skiplist");
      assertThat(raw().zrange(leasedKey, 0, -1))
          .extracting(member -> new String(member, java.nio.charset.StandardCharsets.UTF_8))
          .containsExactlyInAnyOrderElementsOf(leased.stream().map(LeasedJob::id).toList());
      lineup.ackAll(queue, leased.stream().map(AckRequest::of).toList());
      assertThat(raw().exists(leasedKey)).isZero();
    }
  }
}
