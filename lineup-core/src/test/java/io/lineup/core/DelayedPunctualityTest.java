package io.lineup.core;

import static io.lineup.core.Fixtures.aDelayedJob;
import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lineup.consumer.WorkerOptions;
import io.lineup.core.internal.store.KeySpace;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.JobState;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.Leases;
import io.lineup.core.model.PublishResult;
import io.lineup.core.model.QueueName;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Delayed jobs are released at their due time on the test clock, and a waiting consumer gets a job
 * within milliseconds of its due time or of its publish, also when it waits on queues of several
 * nodes. Runs on both topologies ({@link DelayedPunctualityOnStandaloneTest}, {@link
 * DelayedPunctualityOnClusterTest}).
 */
abstract class DelayedPunctualityTest extends EngineSuite {
  @Test
  void aThirtyMinuteDelayIsReleasedAtThirtyMinutesOnTheTestClockNotOneMillisecondBefore() {
    ManualClock clock = new ManualClock(Instant.parse("2030-06-01T12:00:00Z"));
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine(options -> options.timeSource(clock))) {
      PublishResult order =
          lineup.publish(queue, aDelayedJob("close unpaid order 42", Duration.ofMinutes(30)));
      assertThat(order.dueAt()).isEqualTo(Instant.parse("2030-06-01T12:30:00Z"));

      clock.advance(Duration.ofMinutes(30).minusMillis(1));
      Leases early = lineup.lease(queue, 1, Duration.ZERO);
      assertThat(early.jobs()).isEmpty();
      assertThat(early.retryAfter()).isEqualTo(Duration.ofMillis(1));

      assertThat(lineup.get(queue, order.id()).orElseThrow().state()).isEqualTo(JobState.DELAYED);

      clock.advance(Duration.ofMillis(1));
      JobInfo due = lineup.get(queue, order.id()).orElseThrow();
      assertThat(due.state()).as("reads READY as soon as it is due").isEqualTo(JobState.READY);
      assertThat(due.position()).isZero();
      assertThat(lineup.lease(queue, 1, Duration.ZERO).jobs())
          .extracting(LeasedJob::id)
          .containsExactly(order.id());
    }
  }

  @Test
  void anEmptyLeaseSaysToTheMicrosecondOnTheRedisClockHowLongUntilTheNextJobIsDue() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine()) {
      // Due in a minute: twenty leases on a busy machine may take longer than a second or two.
      PublishResult later = lineup.publish(queue, aDelayedJob("later", Duration.ofMinutes(1)));
      List<Duration> waits = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        Instant before = Instant.now();
        Leases early = lineup.lease(queue, 1, Duration.ZERO);
        assertThat(early.jobs()).isEmpty();
        assertThat(early.retryAfter())
            .isPositive()
            .isLessThanOrEqualTo(Duration.between(before, later.dueAt()).plusMillis(5));
        waits.add(early.retryAfter());
      }
      // Redis's clock read in whole ms would make every wait a whole number of ms, and a wait
      // that ends on it up to a ms after the job is due.
      assertThat(waits).anyMatch(wait -> wait.toNanos() % 1_000_000 != 0);
    }
  }

  @Test
  void aWaitingConsumerReceivesEachDelayedJobInDueOrderAndNeverBeforeItIsDue() throws Exception {
    QueueName queue = aFreshQueue();
    int jobs = 20;
    try (Lineup lineup = anEngine()) {
      for (int i = 0; i < jobs; i++) {
        lineup.publish(queue, aDelayedJob("tick " + i, Duration.ofMillis(300 + 47L * i)));
      }
      List<Long> lateness = new ArrayList<>();
      List<String> received = new ArrayList<>();
      while (lateness.size() < jobs) {
        for (LeasedJob job : lineup.lease(queue, 1, Duration.ofSeconds(5)).jobs()) {
          long late = System.currentTimeMillis() - job.dueAt().toEpochMilli();
          assertThat(job.leasedAt())
              .as("never leased before it is due")
              .isAfterOrEqualTo(job.dueAt());
          lateness.add(late);
          received.add(job.payloadText());
          lineup.ack(job);
        }
      }
      List<Long> sorted = lateness.stream().sorted().toList();
      // How late is printed, not asserted: on a busy machine the waiter's own timer fires when
      // the scheduler lets it (issue 49). The median lateness at rest (a few ms, where Redis's own
      // blocking timeout would give ~50) is the bench's late_ms_p50 (docs/benchmarks.md).
      System.out.printf(
          "Delayed-job lateness over %d jobs (ms): p50=%d max=%d all=%s%n",
          jobs, sorted.get(jobs / 2), sorted.get(jobs - 1), lateness);
      assertThat(received)
          .as("each job when its turn came, in the order of the due times")
          .containsExactlyElementsOf(
              java.util.stream.IntStream.range(0, jobs).mapToObj(i -> "tick " + i).toList());
    }
  }

  @Test
  void aLeaseThatTakesEveryJobFallenDueWakesNoOtherConsumerAndOneThatLeavesSomeDoes() {
    ManualClock clock = new ManualClock(Instant.parse("2030-06-01T12:00:00Z"));
    QueueName queue = aFreshQueue();
    byte[] wakeKey = KeySpace.queueKeys(queue)[KeySpace.WAKE_INDEX];
    try (Lineup lineup = anEngine(options -> options.timeSource(clock))) {
      for (int i = 0; i < 3; i++) {
        lineup.publish(queue, aDelayedJob("due " + i, Duration.ofSeconds(10)));
      }
      raw().del(wakeKey);
      clock.advance(Duration.ofSeconds(10));

      assertThat(lineup.lease(queue, 2, Duration.ZERO).jobs()).hasSize(2);
      assertThat(raw().llen(wakeKey)).as("one job left for another consumer").isEqualTo(1);

      raw().del(wakeKey);
      assertThat(lineup.lease(queue, 5, Duration.ZERO).jobs()).hasSize(1);
      assertThat(raw().llen(wakeKey)).as("nothing left to wake anyone for").isZero();
    }
  }

  @Test
  void aWorkerWaitingForOneDelayedJobAfterAnotherKeepsOneBlockedPopForAllOfThem() throws Exception {
    QueueName queue = aFreshQueue();
    int jobs = 30;
    try (Lineup lineup = anEngine()) {
      for (int i = 0; i < jobs; i++) {
        lineup.publish(queue, aDelayedJob("tick " + i, Duration.ofMillis(300 + 20L * i)));
      }
      long blpopsBefore = commandCallsSum("blpop");
      long unblocksBefore = commandCallsSum("client|unblock");
      long started = System.nanoTime();
      AtomicInteger handled = new AtomicInteger();
      try (Worker worker =
          lineup
              .worker(
                  queue,
                  job -> {
                    handled.incrementAndGet();
                    return null;
                  },
                  WorkerOptions.defaults().withConcurrency(4))
              .start()) {
        await().atMost(Duration.ofSeconds(60)).until(() -> handled.get() == jobs);
      }
      long runMs = Duration.ofNanos(System.nanoTime() - started).toMillis();
      // Each job ends a wait on time; a wait that ended its pop and sent a new one would cost
      // two calls per job (30 pops and 30 unblocks). A pop lives at least a second in Redis, and
      // one that takes a token between waits is sent again: a few per second of the run. At rest
      // the run lasts under a second (jobs / 4 pops at most); on a busy machine more tokens come
      // between waits (8 pops in 960 ms beside a parallel build). The bound, half the jobs and
      // one a second, still fails a worker that sends a pop per job (issue 49).
      long pops = commandCallsSum("blpop") - blpopsBefore;
      System.out.printf("%d pops for %d delayed jobs over %d ms%n", pops, jobs, runMs);
      assertThat(commandCallsSum("client|unblock") - unblocksBefore)
          .as("pops ended (at most the worker's close)")
          .isLessThanOrEqualTo(2);
      assertThat(pops)
          .as("pops sent for %d jobs over %d ms", jobs, runMs)
          .isLessThanOrEqualTo(jobs / 2 + runMs / 1000);
    }
  }

  /** Calls of a command so far ({@code INFO commandstats}) added up over every node. */
  private long commandCallsSum(String command) {
    String prefix = "cmdstat_" + command + ":calls=";
    long calls = 0;
    for (String info : infoOfEachNode("commandstats")) {
      for (String line : info.lines().toList()) {
        if (line.startsWith(prefix)) {
          String rest = line.substring(prefix.length());
          calls += Long.parseLong(rest.substring(0, rest.indexOf(',')));
        }
      }
    }
    return calls;
  }

  @Test
  void aConsumerWaitingOnQueuesOfEveryNodeIsWokenByAJobPublishedLater() throws Exception {
    List<QueueName> queues = queuesSpreadOverTheNodes(3);
    int nodes = redis().nodes().size();
    try (Lineup lineup = anEngine();
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
      Future<Leases> waiting =
          executor.submit(() -> lineup.lease(queues, 1, Duration.ofSeconds(10)));
      // The consumer waits on each node that holds one of its queues.
      await()
          .atMost(Duration.ofSeconds(5))
          .until(() -> infoOnEachNode("clients", "blocked_clients").equals(repeat(1L, nodes)));
      long published = System.nanoTime();
      String id = lineup.publish(queues.get(2), aJob("late arrival")).id();
      Leases leases = waiting.get();
      long tookMs = Duration.ofNanos(System.nanoTime() - published).toMillis();
      assertThat(leases.jobs()).extracting(LeasedJob::id).containsExactly(id);
      System.out.printf(
          "A consumer waiting on queues of %d node(s) got the job in %d ms%n", nodes, tookMs);
      // Woken by the publish, before its 10 s wait ended (a wait that ended empty would have been
      // answered without the job); how soon is printed, not asserted (issue 49).
      assertThat(tookMs).isLessThan(10_000);
    }
  }

  private static List<Long> repeat(long value, int times) {
    return java.util.Collections.nCopies(times, value);
  }
}
