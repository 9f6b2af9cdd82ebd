package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.aJob;
import static io.lineup.core.Fixtures.someJobs;
import static io.lineup.core.Fixtures.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.core.internal.store.KeySpace;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.JobState;
import io.lineup.core.model.LeaseLostException;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.PublishResult;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSettings;
import io.lineup.core.model.QueueStats;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Publishes (and acks) to one queue that arrive while earlier ones are in flight share script
 * calls, and each still gets exactly its own results, in arrival order.
 *
 * <p>Runs on both topologies ({@link CombinedCallsOnStandaloneTest}, {@link
 * CombinedCallsOnClusterTest}).
 */
abstract class CombinedCallsTest extends EngineSuite {
  private static final Pattern SCRIPT_CALLS =
      Pattern.compile("cmdstat_(?:eval|evalsha|fcall):calls=(\\d+),.*failed_calls=(\\d+)");

  @Test
  void concurrentPublishesShareScriptCallsYetEachGetsItsOwnResultsInArrivalOrder() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngineWithoutBackgroundLoops(b -> b)) {
      lineup.publish(queue, aJob("registers the queue").id("j0"));
      long callsBefore = scriptCalls();

      List<CompletableFuture<List<PublishResult>>> publishes = new ArrayList<>();
      int jobs = 1;
      for (int request = 0; request < 2000; request++) {
        // Every third publish carries two jobs, so results must be cut at the right places.
        List<NewJob> batch = new ArrayList<>();
        for (int k = 0; k < (request % 3 == 0 ? 2 : 1); k++) {
          batch.add(aJob("job " + jobs).id("j" + jobs));
          jobs++;
        }
        publishes.add(lineup.publishAllAsync(queue, batch));
      }

      List<PublishResult> results = new ArrayList<>();
      publishes.forEach(publish -> results.addAll(publish.join()));
      long calls = scriptCalls() - callsBefore;

      assertThat(results).hasSize(jobs - 1);
      for (int i = 0; i < results.size(); i++) {
        PublishResult result = results.get(i);
        assertThat(result.id()).isEqualTo("j" + (i + 1));
        assertThat(result.created()).isTrue();
        assertThat(result.state()).isEqualTo(JobState.READY);
        assertThat(result.position()).isEqualTo(i + 1);
      }
      assertThat(calls).as("script calls for %d publishes", publishes.size()).isLessThan(500);

      List<String> leased = new ArrayList<>();
      while (leased.size() < jobs) {
        lineup.lease(queue, 1000, Duration.ZERO).jobs().forEach(job -> leased.add(job.id()));
      }
      for (int i = 0; i < jobs; i++) {
        assertThat(leased.get(i)).isEqualTo("j" + i);
      }
    }
  }

  @Test
  void jobsOfOneCallKeepTheirOwnOptions() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine()) {
      Instant before = Instant.now();
      List<PublishResult> results =
          lineup.publishAll(
              queue,
              List.of(
                  aJob("plain").id("plain"),
                  aJob("urgent")
                      .id("urgent")
                      .priority(200)
                      .maxAttempts(7)
                      .timeToRun(Duration.ofSeconds(90)),
                  aJob("later").id("later").delay(Duration.ofHours(1)),
                  aJob("short-lived").id("short-lived").ttl(Duration.ofMinutes(5)),
                  aJob("once").uniqueKey("once", Duration.ofMinutes(1)),
                  aJob("once again").uniqueKey("once", Duration.ofMinutes(1)),
                  aJob("plain too").id("plain-too")));

      assertThat(results)
          .extracting(PublishResult::created)
          .containsExactly(true, true, true, true, true, false, true);
      assertThat(results.get(5).id()).isEqualTo(results.get(4).id());
      assertThat(results)
          .extracting(PublishResult::state)
          .containsExactly(
              JobState.READY,
              JobState.READY,
              JobState.DELAYED,
              JobState.READY,
              JobState.READY,
              JobState.READY,
              JobState.READY);
      // The urgent job jumped the line; the others kept their arrival order behind it.
      assertThat(results)
          .extracting(PublishResult::position)
          .containsExactly(1L, 0L, -1L, 2L, 3L, 3L, 4L);

      JobInfo urgent = lineup.get(queue, "urgent").orElseThrow();
      assertThat(urgent.priority()).isEqualTo(200);
      assertThat(urgent.maxAttempts()).isEqualTo(7);
      assertThat(urgent.timeToRun()).isEqualTo(Duration.ofSeconds(90));
      assertThat(text(urgent.payload())).isEqualTo("urgent");
      JobInfo later = lineup.get(queue, "later").orElseThrow();
      assertThat(later.dueAt())
          .isBetween(before.plus(Duration.ofMinutes(59)), before.plus(Duration.ofMinutes(61)));
      JobInfo shortLived = lineup.get(queue, "short-lived").orElseThrow();
      assertThat(shortLived.expiresAt())
          .isBetween(before.plus(Duration.ofMinutes(4)), before.plus(Duration.ofMinutes(6)));
      assertThat(lineup.get(queue, "plain").orElseThrow().expiresAt()).isNull();
      assertThat(lineup.get(queue, results.get(4).id()).orElseThrow().payload())
          .asString()
          .isEqualTo("once");
    }
  }

  @Test
  void oneIdPublishedManyTimesAtOnceIsCreatedOnce() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngineWithoutBackgroundLoops(b -> b)) {
      List<CompletableFuture<PublishResult>> publishes = new ArrayList<>();
      for (int i = 0; i < 500; i++) {
        publishes.add(lineup.publishAsync(queue, aJob("attempt " + i).id("order-42")));
      }
      List<PublishResult> results = publishes.stream().map(CompletableFuture::join).toList();

      assertThat(results).extracting(PublishResult::id).containsOnly("order-42");
      assertThat(results).filteredOn(PublishResult::created).hasSize(1);
      assertThat(results.get(0).created()).isTrue();
      assertThat(lineup.stats(queue).ready()).isEqualTo(1);
      assertThat(lineup.lease(queue, 10, Duration.ZERO).jobs())
          .singleElement()
          .satisfies(job -> assertThat(job.payloadText()).isEqualTo("attempt 0"));
    }
  }

  @Test
  void concurrentAcksShareScriptCallsYetEachGetsItsOwnOutcome() throws InterruptedException {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngineWithoutBackgroundLoops(b -> b)) {
      List<NewJob> jobs = new ArrayList<>();
      for (int i = 0; i < 600; i++) {
        jobs.add(aJob("job " + i));
      }
      lineup.publishAll(queue, jobs);
      List<LeasedJob> leased = lineup.lease(queue, 600, Duration.ZERO).jobs();
      assertThat(leased).hasSize(600);
      long callsBefore = scriptCalls();

      // Every tenth ack names a token that never held its job: only that ack fails.
      Map<String, Throwable> failures = new ConcurrentHashMap<>();
      try (ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
        for (int i = 0; i < leased.size(); i++) {
          LeasedJob job = leased.get(i);
          String token = i % 10 == 0 ? "not-" + job.token() : job.token();
          callers.submit(() -> {
            try {
              lineup.ack(queue, job.id(), token, ("done " + job.id()).getBytes());
            } catch (RuntimeException e) {
              failures.put(job.id(), e);
            }
          });
        }
      }
      long calls = scriptCalls() - callsBefore;

      assertThat(failures).hasSize(60);
      assertThat(failures.values())
          .allSatisfy(e -> assertThat(e).isInstanceOf(LeaseLostException.class));
      for (int i = 0; i < leased.size(); i++) {
        LeasedJob job = leased.get(i);
        JobInfo info = lineup.get(queue, job.id()).orElseThrow();
        if (i % 10 == 0) {
          assertThat(failures).containsKey(job.id());
          assertThat(info.state()).isEqualTo(JobState.LEASED);
        } else {
          assertThat(info.state()).isEqualTo(JobState.DONE);
          assertThat(info.result()).asString().isEqualTo("done " + job.id());
        }
      }
      assertThat(calls).as("script calls for 600 acks").isLessThan(300);
    }
  }

  @Test
  void theSameAckSentTwiceAtOnceSucceedsTwiceAndCountsOnce() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngineWithoutBackgroundLoops(b -> b)) {
      lineup.publishAll(queue, someJobs(200, "job "));
      List<LeasedJob> leased = lineup.lease(queue, 200, Duration.ZERO).jobs();

      ackAllAtOnce(lineup, queue, leased, leased);

      QueueStats stats = lineup.stats(queue);
      assertThat(stats.counters()).containsEntry("acked", 200L);
      assertThat(stats.finished()).isEqualTo(200);
      assertThat(stats.leased()).isZero();
    }
  }

  @Test
  void acksSharingCallsStillKeepAtMostRetentionMaxFinishedRecords() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngineWithoutBackgroundLoops(b -> b)) {
      lineup.configure(queue, QueueSettings.builder().retentionMax(50).build());
      lineup.publishAll(queue, someJobs(300, "job "));
      List<LeasedJob> leased = lineup.lease(queue, 300, Duration.ZERO).jobs();

      ackAllAtOnce(lineup, queue, leased, List.of());

      assertThat(lineup.stats(queue).finished()).isEqualTo(50);
      long kept = leased.stream().filter(job -> lineup.get(queue, job.id()).isPresent()).count();
      assertThat(kept).isEqualTo(50);
    }
  }

  @Test
  void withoutRetentionAckedRecordsAreDeletedAtOnce() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngineWithoutBackgroundLoops(b -> b)) {
      lineup.configure(queue, QueueSettings.builder().retention(Duration.ZERO).build());
      List<NewJob> jobs = someJobs(100, "job ");
      jobs.set(0, aJob("with a TTL").ttl(Duration.ofHours(1)));
      lineup.publishAll(queue, jobs);
      List<LeasedJob> leased = lineup.lease(queue, 100, Duration.ZERO).jobs();

      ackAllAtOnce(lineup, queue, leased, List.of());

      assertThat(lineup.stats(queue).finished()).isZero();
      assertThat(leased).allSatisfy(job -> assertThat(lineup.get(queue, job.id())).isEmpty());
      assertThat(raw().zcard(KeySpace.queueKeys(queue)[KeySpace.TTL_INDEX])).isZero();
    }
  }

  @Test
  void withCombiningOffEveryPublishIsItsOwnScriptCall() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngineWithoutBackgroundLoops(b -> b.callsInFlightPerQueue(0))) {
      lineup.publish(queue, aJob("registers the queue"));
      long callsBefore = scriptCalls();
      List<CompletableFuture<PublishResult>> publishes = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        publishes.add(lineup.publishAsync(queue, aJob("job " + i)));
      }
      publishes.forEach(CompletableFuture::join);

      assertThat(scriptCalls() - callsBefore).isEqualTo(300);
      assertThat(lineup.stats(queue).ready()).isEqualTo(301);
    }
  }

  /** Acks every job (and those of {@code again} a second time) from a virtual thread each. */
  private static void ackAllAtOnce(
      Lineup lineup, QueueName queue, List<LeasedJob> jobs, List<LeasedJob> again) {
    List<LeasedJob> acks = new ArrayList<>(jobs);
    acks.addAll(again);
    List<CompletableFuture<Void>> done = new ArrayList<>();
    try (ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
      for (LeasedJob job : acks) {
        done.add(
            CompletableFuture.runAsync(
                () -> lineup.ack(queue, job.id(), job.token(), null), callers));
      }
    }
    done.forEach(CompletableFuture::join);
  }

  private Lineup anEngineWithoutBackgroundLoops(
      java.util.function.UnaryOperator<LineupOptions.Builder> tune) {
    // No background loops, so the script calls counted are the publishes' own.
    return anEngine(b -> tune.apply(b.maintenance(false)));
  }

  /**
   * FCALL, EVALSHA and EVAL calls Redis has served so far, on every node together, less those that
   * failed: an FCALL that finds no function (before its library is loaded) is made again by
   * EVALSHA.
   */
  private long scriptCalls() {
    long calls = 0;
    for (String stats : infoOfEachNode("commandstats")) {
      Matcher m = SCRIPT_CALLS.matcher(stats);
      while (m.find()) {
        calls += Long.parseLong(m.group(1)) - Long.parseLong(m.group(2));
      }
    }
    return calls;
  }
}
