package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lineup.core.model.AckOutcome;
import io.lineup.core.model.AckRequest;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.JobNotFoundException;
import io.lineup.core.model.JobState;
import io.lineup.core.model.LeaseLostException;
import io.lineup.core.model.LeaseLostException.Reason;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.Limits;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.QueueName;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Several leased jobs acknowledged in one call, each holding or failing on its own. */
abstract class AcksInBulkTest extends EngineSuite {

  // Set anew before each test: a suite keeps one instance for all its tests.
  private QueueName queue;
  private Lineup lineup;

  @BeforeEach
  void connect() {
    queue = aFreshQueue();
    lineup = anEngine(options -> options.maintenance(false));
  }

  @AfterEach
  void close() {
    lineup.close();
  }

  private List<LeasedJob> leased(int count) {
    for (int i = 0; i < count; i++) {
      lineup.publish(queue, aJob("invoice " + i));
    }
    List<LeasedJob> jobs = lineup.lease(queue, count, Duration.ZERO).jobs();
    assertThat(jobs).hasSize(count);
    return jobs;
  }

  private static byte[] text(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void everyLeasedJobOfTheCallIsAcknowledgedWithItsOwnResult() {
    List<LeasedJob> jobs = leased(3);
    List<AckRequest> acks = new ArrayList<>();
    for (LeasedJob job : jobs) {
      acks.add(new AckRequest(job.id(), job.token(), text("sent " + job.id())));
    }

    List<AckOutcome> outcomes = lineup.ackAll(queue, acks);

    assertThat(outcomes).extracting(AckOutcome::id).containsExactlyElementsOf(ids(jobs));
    assertThat(outcomes).allMatch(AckOutcome::acked);
    for (LeasedJob job : jobs) {
      JobInfo info = lineup.get(queue, job.id()).orElseThrow();
      assertThat(info.state()).isEqualTo(JobState.DONE);
      assertThat(info.result()).isEqualTo(text("sent " + job.id()));
      assertThat(info.payload()).isEqualTo(job.payload());
    }
    assertThat(lineup.stats(queue).leased()).isZero();
    assertThat(lineup.stats(queue).counters()).containsEntry("acked", 3L);
  }

  @Test
  void jobsLeasedTogetherAndAckedTogetherWithoutAResultAreKeptWholeWhateverWayTheyCameIntoLine() {
    List<NewJob> published = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      published.add(aJob("generated id " + i));
      published.add(aJob("given id " + i).id("given-" + i));
      published.add(aJob("with a ttl " + i).ttl(Duration.ofHours(1)).priority(2));
      published.add(aJob("delayed " + i).delay(Duration.ofMillis(10)));
    }
    lineup.publishAll(queue, published);
    // The delayed jobs are moved to the line by the lease that finds them due.
    await()
        .atMost(Duration.ofSeconds(2))
        .until(() ->
            lineup
                .get(queue, "given-0")
                .orElseThrow()
                .createdAt()
                .plusMillis(10)
                .isBefore(java.time.Instant.now()));
    List<LeasedJob> jobs = lineup.lease(queue, 20, Duration.ZERO).jobs();
    assertThat(jobs).hasSize(published.size());

    List<AckOutcome> outcomes = lineup.ackAll(queue, jobs.stream().map(AckRequest::of).toList());

    assertThat(outcomes).allMatch(AckOutcome::acked);
    for (LeasedJob job : jobs) {
      JobInfo done = lineup.get(queue, job.id()).orElseThrow();
      assertThat(done.state()).isEqualTo(JobState.DONE);
      assertThat(done.payload()).isEqualTo(job.payload());
      assertThat(done.attempts()).isEqualTo(1);
      assertThat(done.priority()).isEqualTo(job.priority());
      assertThat(done.startedAt()).isEqualTo(job.leasedAt());
      assertThat(done.finishedAt()).isNotNull();
    }
  }

  @Test
  void aLostLeaseFailsOnlyItsOwnAck() {
    List<LeasedJob> jobs = leased(3);
    lineup.nack(jobs.get(1), "timeout");

    List<AckOutcome> outcomes = lineup.ackAll(queue, jobs.stream().map(AckRequest::of).toList());

    assertThat(outcomes.get(0).acked()).isTrue();
    assertThat(outcomes.get(2).acked()).isTrue();
    assertThat(outcomes.get(1).acked()).isFalse();
    assertThat(outcomes.get(1).failure())
        .isInstanceOfSatisfying(
            LeaseLostException.class, lost -> assertThat(lost.reason()).isEqualTo(Reason.NACKED));
    assertThat(lineup.get(queue, jobs.get(1).id()).orElseThrow().state())
        .isNotEqualTo(JobState.DONE);
  }

  @Test
  void anUnknownJobIsReportedAsNotFoundBesideTheAckedOnes() {
    LeasedJob job = leased(1).get(0);

    List<AckOutcome> outcomes =
        lineup.ackAll(
            queue, List.of(new AckRequest("no-such-job", "abc.1", null), AckRequest.of(job)));

    assertThat(outcomes.get(0).failure()).isInstanceOf(JobNotFoundException.class);
    assertThat(outcomes.get(1).acked()).isTrue();
  }

  @Test
  void repeatingTheAcksOfTheSameLeasesSucceedsAndCountsThemOnce() {
    List<LeasedJob> jobs = leased(2);
    List<AckRequest> acks = jobs.stream().map(AckRequest::of).toList();

    lineup.ackAll(queue, acks);
    List<AckOutcome> again = lineup.ackAll(queue, acks);

    assertThat(again).allMatch(AckOutcome::acked);
    assertThat(lineup.stats(queue).counters()).containsEntry("acked", 2L);
  }

  @Test
  void moreAcksThanOneCallMayCarryAreRefusedAndNoneIsAcknowledged() {
    LeasedJob job = leased(1).get(0);
    List<AckRequest> acks = new ArrayList<>();
    for (int i = 0; i <= Limits.MAX_BATCH; i++) {
      acks.add(AckRequest.of(job));
    }

    assertThatThrownBy(() -> lineup.ackAll(queue, acks))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining(String.valueOf(Limits.MAX_BATCH));
    assertThat(lineup.get(queue, job.id()).orElseThrow().state()).isEqualTo(JobState.LEASED);
  }

  @Test
  void aMalformedTokenRefusesTheWholeCall() {
    List<LeasedJob> jobs = leased(2);

    assertThatThrownBy(() ->
            lineup.ackAll(
                queue,
                List.of(AckRequest.of(jobs.get(0)), new AckRequest(jobs.get(1).id(), "", null))))
        .isInstanceOf(InvalidArgumentException.class);
    assertThat(lineup.stats(queue).leased()).isEqualTo(2);
  }

  @Test
  void ackThenLeaseSettlesTheAcksAndLeasesTheNextJobsInOneCall() {
    List<LeasedJob> first = leased(2);
    lineup.publish(queue, aJob("next 1"));
    lineup.publish(queue, aJob("next 2"));
    List<AckRequest> acks = first.stream().map(AckRequest::of).toList();

    AcksThenLeases answer = lineup.ackThenLease(queue, acks, 10, Duration.ZERO);

    assertThat(answer.acks()).extracting(AckOutcome::id).containsExactlyElementsOf(ids(first));
    assertThat(answer.acks()).allMatch(AckOutcome::acked);
    assertThat(answer.leases().jobs())
        .extracting(job -> new String(job.payload(), StandardCharsets.UTF_8))
        .containsExactly("next 1", "next 2");
    for (LeasedJob job : first) {
      assertThat(lineup.get(queue, job.id()).orElseThrow().state()).isEqualTo(JobState.DONE);
    }
    assertThat(lineup.stats(queue).counters()).containsEntry("acked", 2L);
    assertThat(lineup.stats(queue).leased()).isEqualTo(2);
  }

  @Test
  void ackThenLeaseOnAnEmptyLineAcknowledgesAndWaitsForAJobPublishedMeanwhile() {
    LeasedJob job = leased(1).get(0);
    CompletableFuture.delayedExecutor(200, TimeUnit.MILLISECONDS)
        .execute(() -> lineup.publish(queue, aJob("late arrival")));

    AcksThenLeases answer =
        lineup.ackThenLease(queue, List.of(AckRequest.of(job)), 5, Duration.ofSeconds(5));

    assertThat(answer.acks()).singleElement().matches(AckOutcome::acked);
    assertThat(answer.leases().jobs())
        .singleElement()
        .satisfies(next -> assertThat(next.payload()).isEqualTo(text("late arrival")));
  }

  @Test
  void ackThenLeaseReportsALostLeaseAndStillLeases() {
    List<LeasedJob> jobs = leased(2);
    lineup.release(jobs.get(0)); // back to its place in line: the lease below takes it again

    AcksThenLeases answer =
        lineup.ackThenLease(queue, List.of(AckRequest.of(jobs.get(0))), 1, Duration.ZERO);

    assertThat(answer.acks().get(0).failure()).isInstanceOf(LeaseLostException.class);
    assertThat(answer.leases().jobs()).extracting(LeasedJob::id).containsExactly(jobs.get(0).id());
  }

  @Test
  void ackThenLeaseWithABadCountAcknowledgesNothing() {
    LeasedJob job = leased(1).get(0);

    assertThatThrownBy(
            () -> lineup.ackThenLease(queue, List.of(AckRequest.of(job)), 0, Duration.ZERO))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("count");
    assertThat(lineup.get(queue, job.id()).orElseThrow().state()).isEqualTo(JobState.LEASED);
  }

  private static List<String> ids(List<LeasedJob> jobs) {
    return jobs.stream().map(LeasedJob::id).toList();
  }
}
