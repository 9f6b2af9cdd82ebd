package io.lineup.core;

import static io.lineup.core.Fixtures.aDelayedJob;
import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lineup.core.model.DeadPage;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.JobState;
import io.lineup.core.model.LeaseLostException;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.Leases;
import io.lineup.core.model.NackResult;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.PublishResult;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSettings;
import io.lineup.core.model.QueueStats;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A job's life: publish, lease, ack with a result, nack, retry, dead letters, respawn, release and
 * cancel. Runs on both topologies ({@link JobLifecycleOnStandaloneTest}, {@link
 * JobLifecycleOnClusterTest}).
 */
abstract class JobLifecycleTest extends EngineSuite {
  Lineup lineup;

  @BeforeAll
  void connect() {
    lineup = anEngine();
  }

  @AfterAll
  void close() {
    lineup.close();
  }

  @Test
  void aPublishedJobIsReadyAtPositionZeroThenLeasedAckedAndItsResultKept() {
    QueueName queue = aFreshQueue();
    PublishResult published = lineup.publish(queue, aJob("hello"));
    assertThat(published.created()).isTrue();
    assertThat(published.state()).isEqualTo(JobState.READY);
    assertThat(published.position()).isZero();

    Leases leases = lineup.lease(queue, 10, Duration.ZERO);
    assertThat(leases.jobs()).hasSize(1);
    LeasedJob job = leases.jobs().get(0);
    assertThat(job.id()).isEqualTo(published.id());
    assertThat(job.payloadText()).isEqualTo("hello");
    assertThat(job.attempt()).isEqualTo(1);
    assertThat(job.maxAttempts()).isEqualTo(QueueSettings.DEFAULT_MAX_ATTEMPTS);
    assertThat(Duration.between(job.leasedAt(), job.leaseDeadline()))
        .isEqualTo(QueueSettings.DEFAULT_TIME_TO_RUN);
    assertThat(lineup.get(queue, job.id()).orElseThrow().state()).isEqualTo(JobState.LEASED);

    lineup.ack(job, "done!".getBytes(StandardCharsets.UTF_8));
    JobInfo info = lineup.get(queue, job.id()).orElseThrow();
    assertThat(info.state()).isEqualTo(JobState.DONE);
    assertThat(Fixtures.text(info.result())).isEqualTo("done!");
    assertThat(info.finishedAt()).isNotNull();
    QueueStats stats = lineup.stats(queue);
    assertThat(stats.ready() + stats.leased() + stats.delayed()).isZero();
    assertThat(stats.counters())
        .containsEntry("published", 1L)
        .containsEntry("leased", 1L)
        .containsEntry("acked", 1L);
  }

  @Test
  void aLeasedJobReportsWhatItWasPublishedWithOnItsFirstLeaseAndOnALaterOne() {
    // The lease replies a job's stored body, from which the engine reads these values, and the
    // engine makes the token: the first lease reads a record as published, the lease after a
    // release one that an earlier lease rewrote.
    QueueName queue = aFreshQueue();
    String own =
        lineup
            .publish(queue, aJob("own").priority(7).maxAttempts(5).timeToRun(Duration.ofSeconds(9)))
            .id();
    String plain = lineup.publish(queue, aJob("plain")).id();
    String delayed = lineup.publish(queue, aDelayedJob("delayed", Duration.ofMillis(30))).id();

    java.util.List<LeasedJob> first =
        awaitLeases(queue, 3).stream()
            .sorted(java.util.Comparator.comparing(LeasedJob::id))
            .toList();
    for (LeasedJob job : first) {
      lineup.release(job);
    }
    java.util.List<LeasedJob> again =
        awaitLeases(queue, 3).stream()
            .sorted(java.util.Comparator.comparing(LeasedJob::id))
            .toList();

    for (java.util.List<LeasedJob> leases : java.util.List.of(first, again)) {
      for (LeasedJob job : leases) {
        JobInfo info = lineup.get(queue, job.id()).orElseThrow();
        assertThat(job.priority()).as(job.id()).isEqualTo(info.priority());
        assertThat(job.maxAttempts()).as(job.id()).isEqualTo(info.maxAttempts());
        assertThat(job.createdAt()).as(job.id()).isEqualTo(info.createdAt());
        assertThat(job.dueAt()).as(job.id()).isEqualTo(info.dueAt());
        assertThat(job.attempt()).as(job.id()).isEqualTo(1);
        // The call's nonce and the attempt; the release and the ack below take it as the lease's.
        assertThat(job.token()).as(job.id()).matches("[0-9a-z]{8}\\.1");
      }
      LeasedJob ownJob = leases.stream().filter(j -> j.id().equals(own)).findFirst().orElseThrow();
      assertThat(ownJob.priority()).isEqualTo(7);
      assertThat(ownJob.maxAttempts()).isEqualTo(5);
      assertThat(Duration.between(ownJob.leasedAt(), ownJob.leaseDeadline()))
          .isEqualTo(Duration.ofSeconds(9));
      LeasedJob plainJob =
          leases.stream().filter(j -> j.id().equals(plain)).findFirst().orElseThrow();
      assertThat(plainJob.priority()).isZero();
      assertThat(plainJob.maxAttempts()).isEqualTo(QueueSettings.DEFAULT_MAX_ATTEMPTS);
      assertThat(plainJob.dueAt()).isEqualTo(plainJob.createdAt());
      LeasedJob delayedJob =
          leases.stream().filter(j -> j.id().equals(delayed)).findFirst().orElseThrow();
      assertThat(delayedJob.dueAt()).isAfter(delayedJob.createdAt());
    }
    for (LeasedJob job : again) {
      lineup.ack(job);
      assertThat(lineup.get(queue, job.id()).orElseThrow().state()).isEqualTo(JobState.DONE);
    }
  }

  /** Leases until {@code count} jobs were leased (the delayed one falls due meanwhile). */
  private java.util.List<LeasedJob> awaitLeases(QueueName queue, int count) {
    java.util.List<LeasedJob> leased = new java.util.ArrayList<>();
    org.awaitility.Awaitility.await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> {
          leased.addAll(lineup.lease(queue, count - leased.size(), Duration.ofMillis(200)).jobs());
          return leased.size() == count;
        });
    return leased;
  }

  @Test
  void aBatchOfNewJobsIsAnsweredWithTheIdsPositionsAndDueTimesTheQueueThenShows() {
    // Jobs that all take generated ids and share their options are answered in the publish
    // script's short form (the first arrival only); 130 of them span three hashes of records.
    QueueName queue = aFreshQueue();
    lineup.publish(queue, aJob("already waiting"));
    List<PublishResult> ready = lineup.publishAll(queue, Fixtures.someJobs(130, "ready "));
    List<PublishResult> delayed =
        lineup.publishAll(
            queue,
            List.of(
                aDelayedJob("later 0", Duration.ofMinutes(5)),
                aDelayedJob("later 1", Duration.ofMinutes(5))));

    assertThat(ready).hasSize(130);
    assertThat(ready.stream().map(PublishResult::id).distinct()).hasSize(130);
    for (int i = 0; i < ready.size(); i++) {
      PublishResult result = ready.get(i);
      assertThat(result.created()).isTrue();
      assertThat(result.state()).isEqualTo(JobState.READY);
      assertThat(result.position()).as(result.id()).isEqualTo(i + 1);
      assertThat(lineup.position(queue, result.id())).as(result.id()).isEqualTo(i + 1);
      JobInfo info = lineup.get(queue, result.id()).orElseThrow();
      assertThat(Fixtures.text(info.payload())).isEqualTo("ready " + i);
      assertThat(result.dueAt()).isEqualTo(info.createdAt());
    }
    for (int i = 0; i < delayed.size(); i++) {
      PublishResult result = delayed.get(i);
      JobInfo info = lineup.get(queue, result.id()).orElseThrow();
      assertThat(result.state()).isEqualTo(JobState.DELAYED).isEqualTo(info.state());
      assertThat(result.position()).isEqualTo(-1);
      assertThat(result.dueAt()).isEqualTo(info.dueAt());
      assertThat(Fixtures.text(info.payload())).isEqualTo("later " + i);
    }
  }

  @Test
  void aLeasedJobCarriesItsPayloadByteForByteWhateverItsSize() {
    // Sizes on either side of each msgpack text header (fixstr, str 8, str 16, str 32): the
    // lease reads a record as published past its payload by that header.
    int[] sizes = {0, 1, 31, 32, 255, 256, 65_535, 65_536, 300_000};
    QueueName queue = aFreshQueue();
    java.util.Random random = new java.util.Random(21);
    java.util.Map<String, byte[]> published = new java.util.HashMap<>();
    for (int size : sizes) {
      byte[] payload = new byte[size];
      random.nextBytes(payload);
      published.put(lineup.publish(queue, NewJob.of(payload).priority(size % 7)).id(), payload);
    }

    Leases leases = lineup.lease(queue, sizes.length, Duration.ZERO);

    assertThat(leases.jobs()).hasSize(sizes.length);
    for (LeasedJob job : leases.jobs()) {
      assertThat(job.payload()).as(job.id()).isEqualTo(published.get(job.id()));
      lineup.ack(job);
    }
  }

  @Test
  void manyAsynchronousPublishesInFlightAllArriveAndBadInputIsRefusedBeforeSending()
      throws Exception {
    QueueName queue = aFreshQueue();
    java.util.List<java.util.concurrent.CompletableFuture<PublishResult>> inFlight =
        new java.util.ArrayList<>();
    for (int i = 0; i < 500; i++) {
      inFlight.add(lineup.publishAsync(queue, aJob("async " + i)));
    }
    java.util.Set<String> ids = new java.util.HashSet<>();
    for (var future : inFlight) {
      PublishResult result = future.get();
      assertThat(result.created()).isTrue();
      ids.add(result.id());
    }
    assertThat(ids).hasSize(500);
    assertThat(lineup.stats(queue).ready()).isEqualTo(500);
    assertThatThrownBy(() -> lineup.publishAsync(queue, aJob("bad").priority(1000)))
        .isInstanceOfSatisfying(
            InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("priority"));
  }

  @Test
  void aRepeatedAckOfTheSameLeaseSucceedsButAnAckAfterCancelFailsClearly() {
    QueueName queue = aFreshQueue();
    lineup.publish(queue, aJob("a"));
    lineup.publish(queue, aJob("b"));
    var jobs = lineup.lease(queue, 2, Duration.ZERO).jobs();
    lineup.ack(jobs.get(0));
    lineup.ack(jobs.get(0));

    assertThat(lineup.cancel(queue, jobs.get(1).id())).isEqualTo(JobState.LEASED);
    assertThatThrownBy(() -> lineup.ack(jobs.get(1)))
        .isInstanceOfSatisfying(
            LeaseLostException.class,
            e -> assertThat(e.reason()).isEqualTo(LeaseLostException.Reason.CANCELLED));
    assertThat(lineup.get(queue, jobs.get(1).id()).orElseThrow().state())
        .isEqualTo(JobState.CANCELLED);
  }

  @Test
  void aReleasedJobReturnsToItsOwnPlaceInLineWithoutUsingAnAttempt() {
    QueueName queue = aFreshQueue();
    java.util.List<String> ids = new java.util.ArrayList<>();
    for (int i = 0; i < 5; i++) {
      ids.add(lineup.publish(queue, aJob("r" + i)).id());
    }
    LeasedJob second = lineup.lease(queue, 2, Duration.ZERO).jobs().get(1);
    assertThat(second.id()).isEqualTo(ids.get(1));
    lineup.release(second);
    assertThatThrownBy(() -> lineup.ack(second)).isInstanceOf(LeaseLostException.class);
    JobInfo info = lineup.get(queue, second.id()).orElseThrow();
    assertThat(info.state()).isEqualTo(JobState.READY);
    assertThat(info.attempts()).isZero();
    assertThat(info.position()).as("ahead of the jobs published after it").isZero();
    assertThat(lineup.lease(queue, 1, Duration.ZERO).jobs().get(0).attempt()).isEqualTo(1);
    assertThat(lineup.isKnown(queue)).isTrue();
    assertThat(lineup.isKnown(aFreshQueue())).isFalse();
  }

  @Test
  void releasedJobsReturnToTheirOwnPlacesWhateverWayTheyCameIntoLine() {
    QueueName queue = aFreshQueue();
    // Due after the other six are published, even on a busy machine, so that it joins the line
    // behind them.
    String promoted = lineup.publish(queue, aDelayedJob("promoted", Duration.ofMillis(500))).id();
    String plain = lineup.publish(queue, aJob("plain")).id();
    String given = lineup.publish(queue, aJob("given").id("a-given-id")).id();
    String expiring = lineup.publish(queue, aJob("expiring").ttl(Duration.ofHours(1))).id();
    String urgent = lineup.publish(queue, aJob("urgent").priority(5)).id();
    String last = lineup.publish(queue, aJob("last")).id();
    String low = lineup.publish(queue, aJob("low").priority(-3)).id();
    Instant due = Instant.now().plusMillis(500);
    await().atMost(Duration.ofSeconds(2)).until(() -> Instant.now().isAfter(due));
    // The delayed job joins the line when the lease moves it there, behind the jobs waiting.
    List<String> lineOrder = List.of(urgent, plain, given, expiring, last, promoted, low);

    List<LeasedJob> first = lineup.lease(queue, 10, Duration.ZERO).jobs();
    assertThat(first).extracting(LeasedJob::id).containsExactlyElementsOf(lineOrder);
    releaseAll(first.reversed());
    List<LeasedJob> second = lineup.lease(queue, 10, Duration.ZERO).jobs();
    assertThat(second).extracting(LeasedJob::id).containsExactlyElementsOf(lineOrder);
    // Released twice, from a record a release wrote: still to the same places.
    releaseAll(
        List.of(
            second.get(2),
            second.get(6),
            second.get(0),
            second.get(5),
            second.get(1),
            second.get(4),
            second.get(3)));
    assertThat(lineup.lease(queue, 10, Duration.ZERO).jobs())
        .extracting(LeasedJob::id)
        .containsExactlyElementsOf(lineOrder);
  }

  @Test
  void jobsLeasedAsPublishedAreReleasedToTheirPlacesAheadOfJobsPublishedAfterThem() {
    QueueName queue = aFreshQueue();
    // 130 jobs: ids of one and two base-62 digits, letters among them.
    List<String> ids =
        lineup.publishAll(queue, Fixtures.someJobs(130, "job")).stream()
            .map(PublishResult::id)
            .toList();
    List<LeasedJob> leased = lineup.lease(queue, 130, Duration.ZERO).jobs();
    assertThat(leased).extracting(LeasedJob::id).containsExactlyElementsOf(ids);
    String later = lineup.publish(queue, aJob("later")).id();
    releaseAll(leased.reversed());
    List<String> expected = new java.util.ArrayList<>(ids);
    expected.add(later);
    assertThat(lineup.lease(queue, 200, Duration.ZERO).jobs())
        .extracting(LeasedJob::id)
        .containsExactlyElementsOf(expected);
  }

  private void releaseAll(List<LeasedJob> jobs) {
    jobs.forEach(lineup::release);
  }

  @Test
  void aDelayedJobIsNotLeasableBeforeItsDueTime() {
    QueueName queue = aFreshQueue();
    PublishResult published = lineup.publish(queue, aDelayedJob("later", Duration.ofMillis(300)));
    assertThat(published.state()).isEqualTo(JobState.DELAYED);
    assertThat(published.position()).isEqualTo(-1);
    Leases early = lineup.lease(queue, 1, Duration.ZERO);
    assertThat(early.jobs()).isEmpty();
    assertThat(early.retryAfter()).isPositive();
    Leases onTime = lineup.lease(queue, 1, Duration.ofSeconds(2));
    assertThat(onTime.jobs()).extracting(LeasedJob::id).containsExactly(published.id());
    assertThat(onTime.jobs().get(0).leasedAt()).isAfterOrEqualTo(onTime.jobs().get(0).dueAt());
  }

  @Test
  void aNackedJobIsRetriedThenDeadLetteredAndCanBeRespawned() {
    QueueName queue = aFreshQueue();
    String id = lineup.publish(queue, aJob("fragile").maxAttempts(2)).id();
    LeasedJob first = lineup.lease(queue, 1, Duration.ZERO).jobs().get(0);
    NackResult retry = lineup.nack(queue, id, first.token(), "boom", Duration.ZERO);
    assertThat(retry.state()).isEqualTo(JobState.READY);
    LeasedJob second = lineup.lease(queue, 1, Duration.ZERO).jobs().get(0);
    assertThat(second.attempt()).isEqualTo(2);
    assertThat(lineup.nack(second, "boom again").state()).isEqualTo(JobState.DEAD);

    DeadPage dead = lineup.deadLetters(queue, 0, 10);
    assertThat(dead.total()).isEqualTo(1);
    assertThat(dead.jobs().get(0).lastError()).isEqualTo("boom again");
    assertThat(lineup.respawn(queue, java.util.List.of(id), null)).isEqualTo(1);
    LeasedJob reborn = lineup.lease(queue, 1, Duration.ZERO).jobs().get(0);
    assertThat(reborn.id()).isEqualTo(id);
    assertThat(reborn.attempt()).isEqualTo(1);
  }

  @Test
  void queuesOnEveryNodePublishLeaseAckAndListThemselves() {
    for (QueueName queue : queuesSpreadOverTheNodes(redis().nodes().size())) {
      PublishResult published = lineup.publish(queue, aJob("on " + queue).priority(3));
      assertThat(published.position()).isZero();
      LeasedJob job = lineup.lease(queue, 1, Duration.ofSeconds(1)).jobs().get(0);
      assertThat(job.id()).isEqualTo(published.id());
      lineup.ack(job, "ok".getBytes(StandardCharsets.UTF_8));
      assertThat(lineup.get(queue, job.id()).orElseThrow().state()).isEqualTo(JobState.DONE);
      assertThat(lineup.queues()).contains(queue);
    }
  }
}
