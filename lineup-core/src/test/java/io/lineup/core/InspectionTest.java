package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.aJob;
import static io.lineup.core.Fixtures.someJobs;
import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.core.model.DeadJob;
import io.lineup.core.model.DeadPage;
import io.lineup.core.model.EtaEstimator;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.JobState;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.PublishResult;
import io.lineup.core.model.QueueEvent;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What can be read about a queue: its event stream, ETAs, and dead letters (page, respawn, purge).
 * Runs on both topologies ({@link InspectionOnStandaloneTest}, {@link InspectionOnClusterTest}).
 */
abstract class InspectionTest extends EngineSuite {
  @Test
  void everyStateChangeIsAppendedToTheQueueEventStreamInOrder() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine()) {
      String id = lineup.publish(queue, aJob("tracked")).id();
      LeasedJob job = lineup.lease(queue, 1, Duration.ZERO).jobs().get(0);
      lineup.ack(job);
      List<QueueEvent> events = lineup.events(queue, null, 100);
      assertThat(events)
          .extracting(QueueEvent::kind)
          .containsExactly("published", "leased", "acked");
      assertThat(events).allSatisfy(event -> assertThat(event.jobIds()).containsExactly(id));

      String cancelled = lineup.publish(queue, aJob("gone")).id();
      lineup.cancel(queue, cancelled);
      List<QueueEvent> later = lineup.events(queue, events.get(2).streamId(), 100);
      assertThat(later).extracting(QueueEvent::kind).containsExactly("published", "cancelled");

      List<NewJob> bulk = someJobs(250, "b");
      List<PublishResult> published = lineup.publishAll(queue, bulk);
      QueueEvent big = lineup.events(queue, later.get(1).streamId(), 10).get(0);
      assertThat(big.count()).isEqualTo(250);
      assertThat(big.jobIds()).containsExactly(published.get(0).id(), published.get(249).id());
    }
  }

  @Test
  void positionsOfManyJobsAreReadTogetherInTheirOrderAndTheNewestEventIdMarksWhatCameBefore() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine()) {
      assertThat(lineup.lastEventId(queue)).isNull();
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        ids.add(lineup.publish(queue, aJob("p" + i)).id());
      }
      String leased = lineup.lease(queue, 1, Duration.ZERO).jobs().get(0).id();
      assertThat(leased).isEqualTo(ids.get(0));

      long[] positions =
          lineup.positions(queue, List.of(ids.get(4), ids.get(0), ids.get(1), "unknown-job"));

      assertThat(positions).containsExactly(3, -1, 0, -1);
      List<QueueEvent> all = lineup.events(queue, null, 100);
      String newest = lineup.lastEventId(queue);
      assertThat(newest).isEqualTo(all.get(all.size() - 1).streamId());
      assertThat(lineup.events(queue, newest, 100)).isEmpty();
      lineup.cancel(queue, ids.get(2));
      assertThat(lineup.events(queue, newest, 100))
          .singleElement()
          .satisfies(e -> assertThat(e.jobIds()).containsExactly(ids.get(2)));
    }
  }

  @Test
  void aQueuesEtaEstimatorGivesEachPositionTheEtaThatGetReadsForTheJobThere() {
    QueueName queue = aFreshQueue();
    ManualClock clock = new ManualClock(java.time.Instant.parse("2030-01-01T00:00:00Z"));
    try (Lineup lineup = anEngine(options -> options.timeSource(clock).maintenance(false))) {
      lineup.configure(
          queue,
          QueueSettings.builder()
              .concurrencyLimit(2)
              .expectedServiceTime(Duration.ofMillis(400))
              .build());
      List<String> ids = new java.util.ArrayList<>();
      for (int i = 0; i < 6; i++) {
        ids.add(lineup.publish(queue, aJob("w" + i)).id());
      }
      EtaEstimator estimator = lineup.etaEstimator(queue);
      for (int p = 0; p < ids.size(); p++) {
        JobInfo job = lineup.get(queue, ids.get(p)).orElseThrow();
        assertThat(job.position()).isEqualTo(p);
        // Nothing served yet: 2 at once every 400 ms, so position p waits (p + 1) x 200 ms.
        assertThat(estimator.eta(p)).contains(job.eta());
        assertThat(job.eta().point()).isEqualTo(Duration.ofMillis((p + 1) * 200L));
      }
      lineup.pause(queue);
      assertThat(lineup.etaEstimator(queue).eta(0)).as("paused: no estimate").isEmpty();
    }
  }

  @Test
  void deadLettersCanBeRespawnedInPartOrAllWithAFreshTtlAndPurged() {
    ManualClock clock = new ManualClock(Instant.parse("2030-01-01T00:00:00Z"));
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine(options -> options.timeSource(clock))) {
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        ids.add(lineup.publish(queue, aJob("doomed " + i).maxAttempts(1)).id());
        LeasedJob job = lineup.lease(queue, 1, Duration.ZERO).jobs().get(0);
        lineup.nack(job, "no " + i);
        clock.advance(Duration.ofMillis(1));
      }
      DeadPage page = lineup.deadLetters(queue, 1, 2);
      assertThat(page.total()).isEqualTo(6);
      assertThat(page.jobs()).extracting(DeadJob::id).containsExactly(ids.get(1), ids.get(2));

      assertThat(lineup.respawnOldest(queue, 2, Duration.ofMinutes(5))).isEqualTo(2);
      JobInfo reborn = lineup.get(queue, ids.get(0)).orElseThrow();
      assertThat(reborn.state()).isEqualTo(JobState.READY);
      assertThat(reborn.expiresAt()).isEqualTo(clock.now().plus(Duration.ofMinutes(5)));
      assertThat(lineup.respawn(queue, List.of(ids.get(5), "not-dead"), null)).isEqualTo(1);

      assertThat(lineup.purgeDead(queue)).isEqualTo(3);
      assertThat(lineup.stats(queue).dead()).isZero();
      assertThat(lineup.exists(queue, ids.get(3))).isFalse();
      assertThat(lineup.stats(queue).ready()).isEqualTo(3);
    }
  }
}
