package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.aJob;
import static io.lineup.core.Fixtures.someJobs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lineup.core.model.JobState;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.Leases;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.PublishResult;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSettings;
import io.lineup.core.model.RateSlot;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Queue limits checked inside the lease script: rate, concurrency (freed when a lease ends), and
 * pause. Runs on both topologies ({@link LimitsOnStandaloneTest}, {@link LimitsOnClusterTest}).
 */
abstract class LimitsTest extends EngineSuite {
  @Test
  void aRateLimitOfFiftyPerSecondYieldsExactlyFiftyLeasesInEverySecondAcrossFourConsumers()
      throws Exception {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine();
        ExecutorService consumers = Executors.newFixedThreadPool(4)) {
      lineup.configure(queue, QueueSettings.builder().rateLimit(50).build());
      List<NewJob> jobs = someJobs(1000, "call ");
      lineup.publishAll(queue, jobs);

      List<Long> leasedAt = Collections.synchronizedList(new ArrayList<>());
      long stopAt = System.nanoTime() + Duration.ofMillis(4_500).toNanos();
      List<Future<?>> running = new ArrayList<>();
      for (int c = 0; c < 4; c++) {
        running.add(
            consumers.submit(() -> {
              while (System.nanoTime() < stopAt) {
                for (LeasedJob job : lineup.lease(queue, 10, Duration.ofMillis(300)).jobs()) {
                  leasedAt.add(job.leasedAt().toEpochMilli());
                  lineup.ack(job);
                }
              }
              return null;
            }));
      }
      for (Future<?> consumer : running) {
        consumer.get();
      }

      List<Long> times = leasedAt.stream().sorted().toList();
      long first = times.get(0);
      int[] perSecond = new int[4];
      for (long t : times) {
        int second = (int) ((t - first) / 1000);
        if (second < perSecond.length) {
          perSecond[second]++;
        }
      }
      int busiestWindow = 0;
      for (int i = 0, j = 0; i < times.size(); i++) {
        while (times.get(i) - times.get(j) >= 1000) {
          j++;
        }
        busiestWindow = Math.max(busiestWindow, i - j + 1);
      }
      System.out.printf(
          "Leases per second at 50/s: %s; busiest sliding second: %d%n",
          java.util.Arrays.toString(perSecond), busiestWindow);
      assertThat(perSecond).containsOnly(50);
      assertThat(busiestWindow).isEqualTo(50);
    }
  }

  @Test
  void aRateOfTenPerTwoSecondsHoldsInEverySlidingTwoSecondsAndTellsHowLongToWait() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine()) {
      lineup.configure(
          queue, QueueSettings.builder().rateLimit(10).ratePeriod(Duration.ofSeconds(2)).build());
      lineup.publishAll(queue, someJobs(30, "call "));

      Leases first = lineup.lease(queue, 30, Duration.ZERO);
      Leases refused = lineup.lease(queue, 1, Duration.ZERO);

      assertThat(first.jobs()).hasSize(10);
      assertThat(refused.jobs()).isEmpty();
      assertThat(refused.refusal()).isEqualTo(Leases.Refusal.RATE_LIMITED);
      assertThat(refused.retryAfter()).isGreaterThan(Duration.ofMillis(1_500));
      assertThat(refused.retryAfter()).isLessThanOrEqualTo(Duration.ofMillis(2_001));
    }
  }

  @Test
  void aRateRefusalAnswersTheExactTimeUntilTheOldestLeaseLeavesTheWindow() {
    ManualClock clock = new ManualClock(Instant.parse("2030-01-01T00:00:00Z"));
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine(options -> options.timeSource(clock))) {
      lineup.configure(queue, QueueSettings.builder().rateLimit(1).build());
      lineup.publishAll(queue, someJobs(2, "call "));
      assertThat(lineup.lease(queue, 1, Duration.ZERO).jobs()).hasSize(1);

      Leases refused = lineup.lease(queue, 1, Duration.ZERO);
      clock.advance(refused.retryAfter());
      Leases then = lineup.lease(queue, 1, Duration.ZERO);

      assertThat(refused.refusal()).isEqualTo(Leases.Refusal.RATE_LIMITED);
      assertThat(refused.retryAfter()).isEqualTo(Duration.ofSeconds(1));
      assertThat(then.jobs()).as("leased once the answered wait has passed").hasSize(1);
    }
  }

  @Test
  void aJobTakesItsRateSlotWhenItStartsSoThatStartsHoldTheRateHoweverLongAfterTheirLease() {
    ManualClock clock = new ManualClock(Instant.parse("2030-01-01T00:00:00Z"));
    Instant t0 = clock.now();
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine(options -> options.timeSource(clock))) {
      lineup.configure(queue, QueueSettings.builder().rateLimit(2).build());
      lineup.publishAll(queue, someJobs(4, "call "));
      List<LeasedJob> leased = lineup.lease(queue, 2, Duration.ZERO).jobs();
      assertThat(leased).hasSize(2);
      LeasedJob a = leased.get(0);
      LeasedJob b = leased.get(1);

      clock.advance(Duration.ofMillis(900));
      RateSlot aStarts = lineup.takeRateSlot(a);
      assertThat(aStarts).isEqualTo(new RateSlot(true, t0.plusMillis(900), Duration.ZERO));

      clock.advance(Duration.ofMillis(200));
      List<LeasedJob> more = lineup.lease(queue, 2, Duration.ZERO).jobs();
      assertThat(more)
          .as("the period ending now holds a's start, not its lease nor b's: one lease is free")
          .hasSize(1);
      LeasedJob c = more.get(0);

      RateSlot bRefused = lineup.takeRateSlot(b);
      assertThat(bRefused.taken())
          .as("b starts more than a period after its lease, in a period holding two others")
          .isFalse();
      assertThat(bRefused.retryAfter()).as("until a's start is a period old").hasMillis(800);

      clock.advance(bRefused.retryAfter());
      assertThat(lineup.takeRateSlot(b))
          .isEqualTo(new RateSlot(true, t0.plusMillis(1900), Duration.ZERO));
      assertThat(lineup.takeRateSlot(c).taken())
          .as("c's own lease is one of the two in the period; taking it moves it")
          .isTrue();
      assertThat(lineup.lease(queue, 1, Duration.ZERO).refusal())
          .as("the starts of b and c fill the period")
          .isEqualTo(Leases.Refusal.RATE_LIMITED);
    }
  }

  @Test
  void aJobThatTakesItsSlotAgainOnceItsWorkLeftMovesItsStartSoLaterSlotsWaitAPeriodFromThere() {
    ManualClock clock = new ManualClock(Instant.parse("2030-01-01T00:00:00Z"));
    Instant t0 = clock.now();
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine(options -> options.timeSource(clock))) {
      lineup.configure(queue, QueueSettings.builder().rateLimit(1).build());
      lineup.publishAll(queue, someJobs(2, "call "));
      LeasedJob first = lineup.lease(queue, 1, Duration.ZERO).jobs().get(0);
      assertThat(lineup.takeRateSlot(first).taken()).isTrue();

      // The request was held up for 30 ms between its slot and leaving (a connection to open).
      clock.advance(Duration.ofMillis(30));
      assertThat(lineup.takeRateSlot(first))
          .as("taken again once sent: its entry now says when it really left")
          .isEqualTo(new RateSlot(true, t0.plusMillis(30), Duration.ZERO));

      clock.advance(Duration.ofMillis(975));
      assertThat(lineup.lease(queue, 1, Duration.ZERO).refusal())
          .as("a period after the slot but not after the send: the next must wait")
          .isEqualTo(Leases.Refusal.RATE_LIMITED);
      clock.advance(Duration.ofMillis(30));
      assertThat(lineup.lease(queue, 1, Duration.ZERO).jobs())
          .as("a period after the send")
          .hasSize(1);
    }
  }

  @Test
  void aQueueWithoutARateGivesEveryJobItsSlotAtOnce() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine()) {
      lineup.publish(queue, aJob("x"));
      LeasedJob job = lineup.lease(queue, 1, Duration.ZERO).jobs().get(0);
      assertThat(lineup.takeRateSlot(job).taken()).isTrue();
      assertThat(lineup.takeRateSlot(job).taken()).as("asked again").isTrue();
    }
  }

  @Test
  void aBurstOfOneSpacesLeasesEvenlyOverThePeriod() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine()) {
      lineup.configure(queue, QueueSettings.builder().rateLimit(20).rateBurst(1).build());
      lineup.publishAll(queue, someJobs(12, "call "));

      List<Long> leasedAt = new ArrayList<>();
      while (leasedAt.size() < 12) {
        for (LeasedJob job : lineup.lease(queue, 12, Duration.ofSeconds(2)).jobs()) {
          leasedAt.add(job.leasedAt().toEpochMilli());
          lineup.ack(job);
        }
      }

      List<Long> gaps = new ArrayList<>();
      for (int i = 1; i < leasedAt.size(); i++) {
        gaps.add(leasedAt.get(i) - leasedAt.get(i - 1));
      }
      System.out.println("Gaps between leases at 20/s with a burst of 1 (ms): " + gaps);
      // One lease per 50 ms; never two closer than the interval.
      assertThat(gaps).allSatisfy(gap -> assertThat(gap).isGreaterThanOrEqualTo(49L));
      // How soon the twelve went is the machine's pace, not the limiter's decision (issue 49):
      // reaching the limit is lineup-bench's figure.
    }
  }

  @Test
  void aBurstOfFiveLetsFiveGoAtOnceThenOneAtATime() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine()) {
      lineup.configure(queue, QueueSettings.builder().rateLimit(10).rateBurst(5).build());
      lineup.publishAll(queue, someJobs(20, "call "));

      Leases first = lineup.lease(queue, 20, Duration.ZERO);
      Leases next = lineup.lease(queue, 20, Duration.ZERO);

      assertThat(first.jobs()).hasSize(5);
      assertThat(next.jobs()).isEmpty();
      assertThat(next.refusal()).isEqualTo(Leases.Refusal.RATE_LIMITED);
      assertThat(next.retryAfter()).isBetween(Duration.ofMillis(1), Duration.ofMillis(101));
    }
  }

  @Test
  void aConcurrencyLimitOfThreeIsNeverExceededAndIsReached() throws Exception {
    QueueName queue = aFreshQueue();
    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger highest = new AtomicInteger();
    AtomicLong done = new AtomicLong();
    try (Lineup lineup = anEngine();
        ExecutorService consumers = Executors.newFixedThreadPool(6)) {
      lineup.configure(queue, QueueSettings.builder().concurrencyLimit(3).build());
      List<NewJob> jobs = someJobs(60, "render ");
      lineup.publishAll(queue, jobs);
      List<Future<?>> running = new ArrayList<>();
      for (int c = 0; c < 6; c++) {
        running.add(
            consumers.submit(() -> {
              while (done.get() < 60) {
                List<LeasedJob> held = lineup.lease(queue, 2, Duration.ofMillis(200)).jobs();
                // Every job held counts, from its lease's answer to just before its ack, so this
                // count never runs ahead of Redis's. (Counting only the job being worked on could
                // stay at 2 for good: one consumer holding two jobs and another holding one.)
                highest.accumulateAndGet(inFlight.addAndGet(held.size()), Math::max);
                for (LeasedJob job : held) {
                  Thread.sleep(20);
                  inFlight.decrementAndGet();
                  lineup.ack(job);
                  done.incrementAndGet();
                }
              }
              return null;
            }));
      }
      for (Future<?> consumer : running) {
        consumer.get();
      }
      assertThat(highest.get()).isEqualTo(3);
    }
  }

  @Test
  void aCrashedHolderFreesItsConcurrencySlotWhenItsLeaseEnds() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine()) {
      lineup.configure(queue, QueueSettings.builder().concurrencyLimit(3).build());
      for (int i = 0; i < 4; i++) {
        lineup.publish(queue, aJob("gpu " + i).timeToRun(Duration.ofMillis(600)));
      }
      assertThat(lineup.lease(queue, 3, Duration.ZERO).jobs())
          .hasSize(3); // then the holder "crashes"

      Leases refused = lineup.lease(queue, 1, Duration.ZERO);
      assertThat(refused.jobs()).isEmpty();
      assertThat(refused.refusal()).isEqualTo(Leases.Refusal.CONCURRENCY_LIMITED);
      assertThat(refused.retryAfter()).isPositive().isLessThanOrEqualTo(Duration.ofMillis(600));

      long start = System.nanoTime();
      Leases freed = lineup.lease(queue, 1, Duration.ofSeconds(5));
      long waitedMs = Duration.ofNanos(System.nanoTime() - start).toMillis();
      assertThat(freed.jobs()).hasSize(1);
      // At least till the crashed leases' time to run ended; the job itself shows the wait did
      // not run out (issue 49: no upper bound of the machine's speed).
      assertThat(waitedMs).as("waited for the crashed leases to end").isGreaterThanOrEqualTo(300L);
    }
  }

  @Test
  void aPausedQueueAcceptsJobsButLeasesNothingUntilResumedAndThenWakesItsWaitingConsumer()
      throws Exception {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine();
        MonitoredCalls calls = MonitoredCalls.on(nodeOf(queue))) {
      lineup.pause(queue);
      PublishResult published = lineup.publish(queue, aJob("held"));
      assertThat(published.state()).isEqualTo(JobState.READY);
      Leases paused = lineup.lease(queue, 1, Duration.ZERO);
      assertThat(paused.jobs()).isEmpty();
      assertThat(paused.refusal()).isEqualTo(Leases.Refusal.PAUSED);
      assertThat(lineup.stats(queue).settings().paused()).isTrue();

      var waiting =
          Executors.newVirtualThreadPerTaskExecutor()
              .submit(() -> lineup.lease(queue, 1, Duration.ofSeconds(10)));
      await().atMost(Duration.ofSeconds(5)).until(() -> infoSum("clients", "blocked_clients") == 1);
      long wakesBefore = calls.scriptCommands("\"rpush\"", ":wake\"");
      lineup.resume(queue);
      Leases resumed = waiting.get();
      assertThat(resumed.jobs()).extracting(LeasedJob::id).containsExactly(published.id());
      // Woken by the resume, not found by a timeout: the resume pushed a wake-up for the waiting
      // consumer (seen on Redis's MONITOR, whose lines may come after the lease's reply).
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(() ->
              assertThat(calls.scriptCommands("\"rpush\"", ":wake\""))
                  .as("wake-ups pushed by the resume")
                  .isGreaterThan(wakesBefore));
    }
  }
}
