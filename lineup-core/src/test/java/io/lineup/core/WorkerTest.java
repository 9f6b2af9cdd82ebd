package io.lineup.core;

import static io.lineup.core.Fixtures.aDelayedJob;
import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.aJob;
import static io.lineup.core.Fixtures.someJobs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lineup.consumer.JobHandler;
import io.lineup.consumer.RetryLaterException;
import io.lineup.consumer.WorkerOptions;
import io.lineup.core.model.Backoff;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.JobState;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.PublishResult;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSettings;
import io.lineup.core.model.QueueStats;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The {@link Worker} runtime and {@link JobStream}: concurrency, retries, lease extension, a
 * graceful close. Runs on both topologies ({@link WorkerOnStandaloneTest}, {@link
 * WorkerOnClusterTest}).
 */
abstract class WorkerTest extends EngineSuite {
  @Test
  void aWorkerHandlesEveryJobWithItsConcurrencyAndKeepsTheResults() {
    QueueName queue = aFreshQueue();
    AtomicInteger running = new AtomicInteger();
    AtomicInteger highest = new AtomicInteger();
    try (Lineup lineup = anEngine()) {
      List<NewJob> jobs = someJobs(300, "n");
      List<String> ids = lineup.publishAll(queue, jobs).stream().map(PublishResult::id).toList();
      JobHandler<LeasedJob> handler =
          job -> {
            highest.accumulateAndGet(running.incrementAndGet(), Math::max);
            Thread.sleep(2);
            running.decrementAndGet();
            return ("handled " + job.payloadText()).getBytes(StandardCharsets.UTF_8);
          };
      try (Worker worker =
          lineup.worker(queue, handler, WorkerOptions.defaults().withConcurrency(4)).start()) {
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> lineup.stats(queue).counters().getOrDefault("acked", 0L) == 300);
        assertThat(worker.handled()).isEqualTo(300);
      }
      assertThat(highest.get()).isBetween(2, 4);
      JobInfo info = lineup.get(queue, ids.get(7)).orElseThrow();
      assertThat(info.state()).isEqualTo(JobState.DONE);
      assertThat(Fixtures.text(info.result())).isEqualTo("handled n7");
    }
  }

  @Test
  void closingABusyWorkerLeavesNoJobLeasedAndHandlesNoJobTwice() {
    QueueName queue = aFreshQueue();
    Map<String, AtomicInteger> handledTimes = new ConcurrentHashMap<>();
    try (Lineup lineup = anEngine()) {
      int total = 5_000;
      for (int from = 0; from < total; from += 500) {
        lineup.publishAll(queue, someJobs(500, "busy" + from + "-"));
      }
      // A no-op handler keeps both lease calls on their way most of the time, so the close
      // below finds calls whose jobs are leased but not yet started.
      Worker worker =
          lineup
              .worker(
                  queue,
                  job -> {
                    handledTimes
                        .computeIfAbsent(job.id(), id -> new AtomicInteger())
                        .incrementAndGet();
                    return null;
                  },
                  WorkerOptions.defaults().withConcurrency(64))
              .start();
      await().atMost(Duration.ofSeconds(30)).until(() -> handledTimes.size() >= 1_000);
      worker.close();

      QueueStats stats = lineup.stats(queue);
      assertThat(stats.leased()).isZero();
      assertThat(stats.ready() + handledTimes.size()).isEqualTo(total);
      assertThat(handledTimes.values()).allSatisfy(times -> assertThat(times.get()).isEqualTo(1));
      assertThat(stats.counters().getOrDefault("acked", 0L)).isEqualTo(handledTimes.size());
    }
  }

  @Test
  void aFailingHandlerIsRetriedByTheQueuePolicyThenDeadLetteredAndRetryLaterSetsTheDelay() {
    QueueName queue = aFreshQueue();
    Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
    try (Lineup lineup = anEngine()) {
      lineup.configure(
          queue,
          QueueSettings.builder()
              .maxAttempts(3)
              .backoff(
                  new Backoff(Backoff.Kind.FIXED, Duration.ofMillis(20), Duration.ofMillis(20), 0))
              .build());
      String broken = lineup.publish(queue, aJob("always fails")).id();
      String slow = lineup.publish(queue, aJob("retry later")).id();
      JobHandler<LeasedJob> handler =
          job -> {
            int attempt =
                attempts.computeIfAbsent(job.id(), id -> new AtomicInteger()).incrementAndGet();
            if (job.payloadText().equals("always fails")) {
              throw new IllegalStateException("upstream said no, attempt " + attempt);
            }
            if (attempt == 1) {
              throw new RetryLaterException("not yet", Duration.ofMillis(400));
            }
            return null;
          };
      long start = System.nanoTime();
      try (Worker worker = lineup.worker(queue, handler, WorkerOptions.defaults()).start()) {
        await()
            .atMost(Duration.ofSeconds(20))
            .until(() -> lineup.get(queue, slow).orElseThrow().state() == JobState.DONE);
        long tookMs = Duration.ofNanos(System.nanoTime() - start).toMillis();
        assertThat(tookMs)
            .as("the second attempt waited for the handler's delay")
            .isGreaterThanOrEqualTo(400);
        await()
            .atMost(Duration.ofSeconds(20))
            .until(() -> lineup.get(queue, broken).orElseThrow().state() == JobState.DEAD);
      }
      assertThat(attempts.get(broken).get()).isEqualTo(3);
      assertThat(lineup.get(queue, broken).orElseThrow().lastError())
          .contains("upstream said no, attempt 3");
      assertThat(attempts.get(slow).get()).isEqualTo(2);
    }
  }

  @Test
  void leasesAreExtendedWhileAHandlerRunsLongerThanItsTimeToRun() {
    QueueName queue = aFreshQueue();
    AtomicInteger calls = new AtomicInteger();
    try (Lineup lineup = anEngine()) {
      String id = lineup.publish(queue, aJob("video").timeToRun(Duration.ofMillis(300))).id();
      JobHandler<LeasedJob> handler =
          job -> {
            calls.incrementAndGet();
            Thread.sleep(1500);
            return null;
          };
      try (Worker worker =
          lineup.worker(queue, handler, WorkerOptions.defaults().withConcurrency(2)).start()) {
        await()
            .atMost(Duration.ofSeconds(20))
            .until(() -> lineup.get(queue, id).orElseThrow().state() == JobState.DONE);
      }
      assertThat(calls.get()).as("never delivered twice").isEqualTo(1);
      assertThat(lineup.get(queue, id).orElseThrow().attempts()).isEqualTo(1);
    }
  }

  @Test
  void
      closingAWorkerStopsLeasingLetsRunningHandlersFinishAndReleasesTheRestToTheirPlaceAfterTheGrace()
          throws Exception {
    QueueName queue = aFreshQueue();
    CountDownLatch started = new CountDownLatch(2);
    try (Lineup lineup = anEngine()) {
      String quick = lineup.publish(queue, aJob("quick").priority(2)).id();
      String stuck = lineup.publish(queue, aJob("stuck").priority(1)).id();
      String untouched = lineup.publish(queue, aJob("untouched")).id();
      JobHandler<LeasedJob> handler =
          job -> {
            started.countDown();
            if (job.payloadText().equals("quick")) {
              started.await();
              Thread.sleep(200);
              return null;
            }
            Thread.sleep(60_000);
            return null;
          };
      Worker worker =
          lineup
              .worker(
                  queue,
                  handler,
                  new WorkerOptions(2, Duration.ofSeconds(1), Duration.ofMillis(800)))
              .start();
      assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
      long closing = System.nanoTime();
      worker.close();
      long closeMs = Duration.ofNanos(System.nanoTime() - closing).toMillis();

      assertThat(lineup.get(queue, quick).orElseThrow().state()).isEqualTo(JobState.DONE);
      JobInfo released = lineup.get(queue, stuck).orElseThrow();
      assertThat(released.state()).isEqualTo(JobState.READY);
      assertThat(released.attempts()).as("a release does not use up an attempt").isZero();
      assertThat(released.position()).as("back at the front, ahead of the lower priority").isZero();
      assertThat(lineup.get(queue, untouched).orElseThrow().state()).isEqualTo(JobState.READY);
      // The stuck handler never returns, so a close that waited for it would never end: a bound
      // far above the 800 ms grace, so that a busy machine's delays do not count (issue 49).
      assertThat(closeMs).isLessThan(30_000);
    }
  }

  @Test
  void aJobStreamDeliversJobsToAForLoopAndSettlesThemByAckAndNack() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine()) {
      for (int i = 0; i < 10; i++) {
        lineup.publish(queue, aJob("s" + i).maxAttempts(1));
      }
      List<String> seen = new ArrayList<>();
      try (JobStream stream = lineup.stream(queue, WorkerOptions.defaults().withConcurrency(3))) {
        for (LeasedJob job : stream) {
          seen.add(job.payloadText());
          if (job.payloadText().equals("s3")) {
            stream.nack(job, "cannot do s3");
          } else {
            stream.ack(job, null);
          }
          if (seen.size() == 10) {
            break;
          }
        }
      }
      assertThat(seen)
          .containsExactlyInAnyOrder("s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9");
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> lineup.stats(queue).counters().getOrDefault("acked", 0L) == 9);
      assertThat(lineup.stats(queue).dead()).isEqualTo(1);
    }
  }

  @Test
  void aHandlerThatGivesItsJobBackLeavesItsAttemptUncountedAndItsPlaceInLine() {
    QueueName queue = aFreshQueue();
    Map<String, AtomicInteger> leases = new ConcurrentHashMap<>();
    try (Lineup lineup = anEngine()) {
      lineup.configure(queue, QueueSettings.builder().maxAttempts(1).build());
      String id = lineup.publish(queue, aJob("not now")).id();
      List<Integer> attemptsSeen = new java.util.concurrent.CopyOnWriteArrayList<>();
      JobHandler<LeasedJob> handler =
          job -> {
            attemptsSeen.add(job.attempt());
            if (leases.computeIfAbsent(job.id(), x -> new AtomicInteger()).incrementAndGet() < 3) {
              throw new ReleaseJobException("the switch is open");
            }
            return null;
          };
      try (Worker worker = lineup.worker(queue, handler, WorkerOptions.defaults()).start()) {
        await()
            .atMost(Duration.ofSeconds(10))
            .until(() -> lineup.get(queue, id).orElseThrow().state() == JobState.DONE);
      }
      // With one attempt allowed, a nack would have made it a dead letter: releases do not count.
      assertThat(attemptsSeen).containsExactly(1, 1, 1);
      assertThat(lineup.stats(queue).dead()).isZero();
    }
  }

  @Test
  void aWorkerRunsWaitingJobsAndADelayedJobOnceItIsDue() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine()) {
      String delayed = lineup.publish(queue, aDelayedJob("later", Duration.ofMillis(300))).id();
      lineup.publishAll(queue, someJobs(50, "now "));
      try (Worker worker = lineup.worker(queue, job -> null, WorkerOptions.defaults()).start()) {
        await()
            .atMost(Duration.ofSeconds(20))
            .until(() -> lineup.stats(queue).counters().getOrDefault("acked", 0L) == 51);
      }
      assertThat(lineup.get(queue, delayed).orElseThrow().state()).isEqualTo(JobState.DONE);
    }
  }
}
