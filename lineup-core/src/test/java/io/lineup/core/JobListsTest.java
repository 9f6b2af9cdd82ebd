package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lineup.core.model.CountMismatchException;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.JobAction;
import io.lineup.core.model.JobActionResult;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.JobList;
import io.lineup.core.model.JobListPage;
import io.lineup.core.model.JobListQuery;
import io.lineup.core.model.JobState;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.ListedJob;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSettings;
import io.lineup.core.model.RedisUnavailableException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Lists of a queue's jobs by state with keyset paging and filters, and actions on jobs by id and by
 * filter. Runs on both topologies ({@link JobListsOnStandaloneTest}, {@link
 * JobListsOnClusterTest}). The engine runs on a manual clock, so delayed jobs stay delayed.
 */
abstract class JobListsTest extends EngineSuite {
  private static final Instant START = Instant.parse("2030-01-01T00:00:00Z");

  /**
   * Waits until the suite's Redis answers an engine's first calls: a cluster this suite is the
   * first to use can take longer than one command timeout to load the scripts on a busy machine.
   */
  @BeforeAll
  void redisAnswers() {
    try (Lineup lineup = anEngine()) {
      QueueName queue = aFreshQueue();
      await()
          .atMost(Duration.ofMinutes(1))
          .ignoreExceptionsInstanceOf(RedisUnavailableException.class)
          .until(() -> lineup.listJobs(queue, JobListQuery.of(JobList.READY)).jobs().isEmpty());
    }
  }

  private Lineup anEngineOn(ManualClock clock) {
    return anEngine(options -> options.timeSource(clock).maintenance(false));
  }

  /** Every page of a query, reading on with each page's cursor; {@code between} runs after each. */
  private static List<ListedJob> allPages(
      Lineup lineup, QueueName queue, JobListQuery query, Consumer<List<ListedJob>> between) {
    List<ListedJob> seen = new ArrayList<>();
    JobListQuery next = query;
    for (int pages = 0; pages < 1000; pages++) {
      JobListPage page = lineup.listJobs(queue, next);
      seen.addAll(page.jobs());
      between.accept(page.jobs());
      if (page.nextCursor() == null) {
        return seen;
      }
      next = next.after(page.nextCursor());
    }
    throw new AssertionError("the pages did not end");
  }

  private static List<String> ids(List<ListedJob> jobs) {
    return jobs.stream().map(ListedJob::id).toList();
  }

  @Test
  void delayedJobsThatStayDelayedAreListedOnceEachWhileOthersComeAndGoBetweenPages() {
    ManualClock clock = new ManualClock(START);
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngineOn(clock)) {
      // Five due times shared by many jobs: pages end inside runs of equal scores.
      List<String> published = new ArrayList<>();
      for (int i = 0; i < 60; i++) {
        published.add(
            lineup.publish(queue, aJob("d" + i).delay(Duration.ofMinutes(1 + i % 5))).id());
      }
      Set<String> removed = new HashSet<>();
      int[] added = {0};
      for (boolean descending : new boolean[] {false, true}) {
        List<ListedJob> seen =
            allPages(
                lineup,
                queue,
                JobListQuery.of(JobList.DELAYED).limit(7).descending(descending),
                page -> {
                  if (page.isEmpty()) {
                    return;
                  }
                  // The page's last entry (the cursor's) and a job not seen yet leave; new jobs
                  // arrive at every due time.
                  String last = page.get(page.size() - 1).id();
                  lineup.cancel(queue, last);
                  removed.add(last);
                  for (String id : published) {
                    if (!removed.contains(id) && !ids(page).contains(id)) {
                      lineup.cancel(queue, id);
                      removed.add(id);
                      break;
                    }
                  }
                  lineup.publish(queue, aJob("new" + added[0]++).delay(Duration.ofMinutes(3)));
                });
        List<String> seenIds = ids(seen);
        assertThat(new HashSet<>(seenIds)).as("no job is listed twice").hasSize(seenIds.size());
        List<String> stayed = published.stream().filter(id -> !removed.contains(id)).toList();
        assertThat(seenIds).as("every job that stayed delayed is listed").containsAll(stayed);
        List<Instant> dues = seen.stream().map(ListedJob::at).toList();
        assertThat(dues)
            .as("in due order")
            .isSortedAccordingTo(descending ? (a, b) -> b.compareTo(a) : Instant::compareTo);
        assertThat(seen).allSatisfy(job -> assertThat(job.state()).isEqualTo(JobState.DELAYED));
      }
    }
  }

  @Test
  void theReadyListIsTheLineInLeaseOrderWithPositionsAndPagesBackwardsToo() {
    ManualClock clock = new ManualClock(START);
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngineOn(clock)) {
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        ids.add(lineup.publish(queue, aJob("r" + i)).id());
      }
      String urgent = lineup.publish(queue, aJob("urgent").priority(9)).id();

      JobListPage first = lineup.listJobs(queue, JobListQuery.of(JobList.READY).limit(5));
      assertThat(ids(first.jobs()))
          .containsExactly(urgent, ids.get(0), ids.get(1), ids.get(2), ids.get(3));
      assertThat(first.jobs()).extracting(ListedJob::position).containsExactly(0L, 1L, 2L, 3L, 4L);
      assertThat(first.jobs().get(0).at()).as("the line is not sorted by a time").isNull();
      assertThat(first.nextCursor()).isNotNull();

      List<ListedJob> backwards =
          allPages(
              lineup, queue, JobListQuery.of(JobList.READY).limit(5).descending(true), p -> {});
      assertThat(ids(backwards)).hasSize(13).startsWith(ids.get(11)).endsWith(urgent);
      assertThat(backwards.get(0).position()).isEqualTo(12);
    }
  }

  @Test
  void leasedDeadAndFinishedJobsAreListedByLeaseDeadlineDeathAndFinishTime() {
    ManualClock clock = new ManualClock(START);
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngineOn(clock)) {
      String held = lineup.publish(queue, aJob("held").timeToRun(Duration.ofMinutes(2))).id();
      String doomed = lineup.publish(queue, aJob("doomed").maxAttempts(1)).id();
      String acked = lineup.publish(queue, aJob("acked")).id();
      String gone = lineup.publish(queue, aJob("gone")).id();
      List<LeasedJob> leased = lineup.lease(queue, 3, Duration.ZERO).jobs();
      clock.advance(Duration.ofSeconds(1));
      lineup.nack(leased.get(1), "upstream timeout after 30 s");
      lineup.ack(leased.get(2));
      clock.advance(Duration.ofSeconds(1));
      lineup.cancel(queue, gone);

      ListedJob leasedJob = lineup.listJobs(queue, JobListQuery.of(JobList.LEASED)).jobs().get(0);
      assertThat(leasedJob.id()).isEqualTo(held);
      assertThat(leasedJob.at()).isEqualTo(START.plus(Duration.ofMinutes(2)));
      assertThat(leasedJob.state()).isEqualTo(JobState.LEASED);

      ListedJob dead = lineup.listJobs(queue, JobListQuery.of(JobList.DEAD)).jobs().get(0);
      assertThat(dead.id()).isEqualTo(doomed);
      assertThat(dead.lastError()).isEqualTo("upstream timeout after 30 s");
      assertThat(dead.at()).isEqualTo(START.plusSeconds(1));
      assertThat(Fixtures.text(dead.payload())).isEqualTo("doomed");

      List<ListedJob> finished = lineup.listJobs(queue, JobListQuery.of(JobList.FINISHED)).jobs();
      assertThat(finished).extracting(ListedJob::id).containsExactly(acked, gone);
      assertThat(finished)
          .extracting(ListedJob::state)
          .containsExactly(JobState.DONE, JobState.CANCELLED);
      assertThat(finished.get(1).at()).isEqualTo(START.plusSeconds(2));
    }
  }

  @Test
  void filtersKeepJobsByIdPrefixErrorTextAndTimeRange() {
    ManualClock clock = new ManualClock(START);
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngineOn(clock)) {
      for (int i = 0; i < 6; i++) {
        String prefix = i % 2 == 0 ? "order-" : "refund-";
        lineup.publish(queue, aJob("j" + i).id(prefix + i).maxAttempts(1));
      }
      for (LeasedJob job : lineup.lease(queue, 6, Duration.ZERO).jobs()) {
        clock.advance(Duration.ofSeconds(1));
        lineup.nack(job, job.id().endsWith("3") ? "HTTP 503 from billing" : "bad input");
      }
      JobListQuery dead = JobListQuery.of(JobList.DEAD);
      assertThat(ids(lineup.listJobs(queue, dead.idPrefix("refund-")).jobs()))
          .containsExactly("refund-1", "refund-3", "refund-5");
      assertThat(ids(lineup.listJobs(queue, dead.errorContains("503")).jobs()))
          .containsExactly("refund-3");
      // Deaths at START + 1 s … + 6 s, in id order.
      assertThat(
              ids(
                  lineup
                      .listJobs(queue, dead.between(START.plusSeconds(2), START.plusSeconds(4)))
                      .jobs()))
          .containsExactly("refund-1", "order-2", "refund-3");

      lineup.publish(queue, aJob("old").id("old"));
      clock.advance(Duration.ofMinutes(1));
      String later = lineup.publish(queue, aJob("later")).id();
      assertThat(
              ids(
                  lineup
                      .listJobs(queue, JobListQuery.of(JobList.READY).between(clock.now(), null))
                      .jobs()))
          .containsExactly(later);
    }
  }

  @Test
  void aFilterThatMatchesLittleExaminesABoundedNumberOfEntriesPerPageAndSaysWhereToGoOn() {
    ManualClock clock = new ManualClock(START);
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngineOn(clock)) {
      List<NewJob> jobs = new ArrayList<>();
      for (int i = 0; i < 1500; i++) {
        jobs.add(aJob("n" + i).id("job-" + i));
      }
      jobs.add(aJob("needle").id("needle"));
      for (int from = 0; from < jobs.size(); from += 1000) {
        lineup.publishAll(queue, jobs.subList(from, Math.min(jobs.size(), from + 1000)));
      }
      JobListQuery query = JobListQuery.of(JobList.READY).idPrefix("needle");
      JobListPage first = lineup.listJobs(queue, query);
      assertThat(first.scanned()).isEqualTo(JobListQuery.SCAN_PER_PAGE);
      assertThat(first.jobs()).isEmpty();
      assertThat(first.nextCursor()).isNotNull();

      JobListPage second = lineup.listJobs(queue, query.after(first.nextCursor()));
      assertThat(second.scanned()).isEqualTo(501);
      assertThat(ids(second.jobs())).containsExactly("needle");
      assertThat(second.jobs().get(0).position()).isEqualTo(1500);
      assertThat(second.nextCursor()).isNull();
    }
  }

  @Test
  void eachActionTakesJobsInItsStatesAndSaysWhyItSkipsTheOthers() {
    ManualClock clock = new ManualClock(START);
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngineOn(clock)) {
      String dead = lineup.publish(queue, aJob("dead").maxAttempts(1)).id();
      lineup.nack(lineup.lease(queue, 1, Duration.ZERO).jobs().get(0), "boom");
      String acked = lineup.publish(queue, aJob("acked")).id();
      lineup.ack(lineup.lease(queue, 1, Duration.ZERO).jobs().get(0));
      String ready = lineup.publish(queue, aJob("ready")).id();
      String delayed =
          lineup.publish(queue, aJob("delayed").priority(5).delay(Duration.ofHours(1))).id();

      JobActionResult runNow =
          lineup.actOnJobs(queue, JobAction.RUN_NOW, List.of(delayed, ready, "nobody"), null);
      assertThat(runNow.matched()).isEqualTo(3);
      assertThat(runNow.done()).isEqualTo(1);
      assertThat(runNow.skipped())
          .containsExactly(
              new JobActionResult.Skipped(ready, "state_ready"),
              new JobActionResult.Skipped("nobody", "not_found"));
      JobInfo ran = lineup.get(queue, delayed).orElseThrow();
      assertThat(ran.state()).isEqualTo(JobState.READY);
      assertThat(ran.position()).as("its priority kept: ahead of the normal job").isZero();

      JobActionResult respawn =
          lineup.actOnJobs(queue, JobAction.RESPAWN, List.of(dead, ready), null);
      assertThat(respawn.done()).isEqualTo(1);
      assertThat(respawn.skipped())
          .containsExactly(new JobActionResult.Skipped(ready, "state_ready"));
      JobInfo reborn = lineup.get(queue, dead).orElseThrow();
      assertThat(reborn.state()).isEqualTo(JobState.READY);
      assertThat(reborn.attempts()).isZero();

      JobActionResult cancel =
          lineup.actOnJobs(queue, JobAction.CANCEL, List.of(ready, acked), null);
      assertThat(cancel.done()).isEqualTo(1);
      assertThat(cancel.skipped())
          .containsExactly(new JobActionResult.Skipped(acked, "state_done"));
      assertThat(lineup.get(queue, ready).orElseThrow().state()).isEqualTo(JobState.CANCELLED);

      JobActionResult delete =
          lineup.actOnJobs(queue, JobAction.DELETE, List.of(ready, acked, delayed, dead), null);
      assertThat(delete.done()).isEqualTo(4);
      for (String id : List.of(ready, acked, delayed, dead)) {
        assertThat(lineup.exists(queue, id)).as(id + " is gone").isFalse();
      }
      var stats = lineup.stats(queue);
      assertThat(stats.ready() + stats.delayed() + stats.leased() + stats.dead() + stats.finished())
          .isZero();
    }
  }

  @Test
  void inAFairQueueActionsKeepTheKeysCountsAndAPausedKeysJobRunNowWaitsInItsPark() {
    ManualClock clock = new ManualClock(START);
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngineOn(clock)) {
      lineup.configure(queue, QueueSettings.builder().fair(true).build());
      String later =
          lineup.publish(queue, aJob("later").key("acme").delay(Duration.ofHours(1))).id();
      String held = lineup.publish(queue, aJob("held").key("bolt").delay(Duration.ofHours(1))).id();
      String waiting = lineup.publish(queue, aJob("waiting").key("acme")).id();
      lineup.fairness().pause(queue, "bolt");

      JobActionResult ran = lineup.actOnJobs(queue, JobAction.RUN_NOW, List.of(later, held), null);
      assertThat(ran.done()).isEqualTo(2);
      assertThat(ids(lineup.listJobs(queue, JobListQuery.of(JobList.READY)).jobs()))
          .as("the paused key's job is held, not in the line")
          .containsExactly(waiting, later);
      assertThat(lineup.fairness().key(queue, "bolt").parked()).isEqualTo(1);

      lineup.actOnJobs(queue, JobAction.DELETE, List.of(waiting), null);
      lineup.actOnJobs(queue, JobAction.CANCEL, List.of(held), null);
      assertThat(lineup.fairness().key(queue, "acme").waiting()).isEqualTo(1);
      assertThat(lineup.fairness().key(queue, "bolt").waiting()).isZero();
      assertThat(lineup.fairness().key(queue, "bolt").parked()).isZero();
    }
  }

  @Test
  void aLeasedJobCanBeCancelledAndItsConsumerLearnsItAtTheAck() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine()) {
      lineup.publish(queue, aJob("long"));
      LeasedJob job = lineup.lease(queue, 1, Duration.ZERO).jobs().get(0);
      JobActionResult cancel = lineup.actOnJobs(queue, JobAction.CANCEL, List.of(job.id()), null);
      assertThat(cancel.done()).isEqualTo(1);
      assertThat(lineup.listJobs(queue, JobListQuery.of(JobList.LEASED)).jobs()).isEmpty();
      assertThatThrownBy(() -> lineup.ack(job)).hasMessageContaining("cancel");
    }
  }

  @Test
  void anActionOnAllMatchingJobsRunsOnlyWhenTheirCountIsTheOneExpected() {
    ManualClock clock = new ManualClock(START);
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngineOn(clock)) {
      for (int i = 0; i < 25; i++) {
        lineup.publish(
            queue,
            aJob("t" + i)
                .id((i < 15 ? "tenant-a-" : "tenant-b-") + i)
                .delay(Duration.ofMinutes(5)));
      }
      JobListQuery tenantA = JobListQuery.of(JobList.DELAYED).idPrefix("tenant-a-");

      assertThatThrownBy(
              () -> lineup.actOnMatchingJobs(queue, JobAction.RUN_NOW, tenantA, 14, null))
          .isInstanceOfSatisfying(
              CountMismatchException.class,
              e -> {
                assertThat(e.actual()).isEqualTo(15);
                assertThat(e.expected()).isEqualTo(14);
              });
      assertThat(lineup.stats(queue).ready()).as("nothing was done").isZero();

      JobActionResult result =
          lineup.actOnMatchingJobs(queue, JobAction.RUN_NOW, tenantA, 15, null);
      assertThat(result.matched()).isEqualTo(15);
      assertThat(result.done()).isEqualTo(15);
      assertThat(lineup.stats(queue).ready()).isEqualTo(15);
      assertThat(lineup.stats(queue).delayed()).isEqualTo(10);
    }
  }

  @Test
  void aCursorThatIsNotOneOrIsOfAnotherListIsRefused() {
    ManualClock clock = new ManualClock(START);
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngineOn(clock)) {
      lineup.publishAll(queue, List.of(aJob("a"), aJob("b")));
      String cursor = lineup.listJobs(queue, JobListQuery.of(JobList.READY).limit(1)).nextCursor();
      assertThat(cursor).isNotNull();
      for (JobListQuery bad :
          List.of(
              JobListQuery.of(JobList.READY).after("not a cursor"),
              JobListQuery.of(JobList.DEAD).after(cursor),
              JobListQuery.of(JobList.READY).descending(true).after(cursor))) {
        assertThatThrownBy(() -> lineup.listJobs(queue, bad))
            .isInstanceOfSatisfying(
                InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("cursor"));
      }
      assertThatThrownBy(() -> lineup.listJobs(queue, JobListQuery.of(JobList.READY).limit(101)))
          .isInstanceOfSatisfying(
              InvalidArgumentException.class, e -> assertThat(e.field()).isEqualTo("limit"));
    }
  }
}
