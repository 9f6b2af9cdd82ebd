package io.lineup.core;

import static io.lineup.core.Fixtures.aDelayedJob;
import static io.lineup.core.Fixtures.aFreshQueue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lineup.core.internal.store.KeySpace;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The due watch (lease.lua, lib/due_watch.lua): of the workers a delayed job leaves idle, one waits
 * until it falls due and the others until the watch is {@link #SLACK} overdue; a watcher that fills
 * its slots or closes hands the watch on at once, and one that vanished is replaced once its watch
 * is overdue. Runs on both topologies ({@link DueWatchOnStandaloneTest}, {@link
 * DueWatchOnClusterTest}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
abstract class DueWatchTest extends EngineSuite {
  /** How long after the watched due time the others wait: DUE_WATCH_SLACK_MS of the script. */
  static final Duration SLACK = Duration.ofMillis(200);

  /** A job started this soon after its due time was started by a worker that watched for it. */
  static final Duration ON_TIME = Duration.ofMillis(100);

  @Test
  void ofTwoIdleWorkersOnlyTheWatcherLeasesAtEachDueTimeAndTheOtherAboutOnceInTheSlack()
      throws Exception {
    QueueName queue = aFreshQueue();
    int jobs = 30;
    try (Lineup one = anEngineWithoutSweeps();
        Lineup other = anEngineWithoutSweeps();
        MonitoredCalls calls = MonitoredCalls.on(nodeOf(queue))) {
      for (int i = 0; i < jobs; i++) {
        one.publish(queue, aDelayedJob("tick " + i, Duration.ofMillis(500 + 20L * i)));
      }
      AtomicInteger handled = new AtomicInteger();
      JobHandler count =
          job -> {
            handled.incrementAndGet();
            return null;
          };
      WorkerOptions four = WorkerOptions.defaults().withConcurrency(4);
      try (Worker first = one.worker(queue, count, four).start();
          Worker second = other.worker(queue, count, four).start()) {
        await().atMost(Duration.ofSeconds(10)).until(() -> handled.get() == jobs);
      }
      Map<String, Long> leases = calls.byClient("\"lineup_lease_");
      assertThat(leases).as("lease calls by engine connection").hasSize(2);
      long watcher = Collections.max(leases.values());
      long follower = Collections.min(leases.values());
      assertThat(watcher)
          .as("the watcher's lease calls, one or more per due time")
          .isGreaterThanOrEqualTo(jobs);
      // Without the watch both lease at every due time. The follower leases at its start, at its
      // close, and when the watch it follows is SLACK overdue: about every 200 ms of the 580.
      assertThat(follower)
          .as("the other worker's lease calls, %s", leases)
          .isLessThanOrEqualTo(jobs / 3);
    }
  }

  @Test
  void aWatcherThatVanishedIsReplacedOnceItsWatchIsTheSlackOverdue() throws Exception {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngineWithoutSweeps()) {
      PublishResult job =
          lineup.publish(queue, aDelayedJob("watched by the dead", Duration.ofMillis(300)));
      // A watch left by a consumer whose process died before the job fell due.
      leaveAWatch(queue, "a consumer that died", job.dueAt());
      Lateness lateness = new Lateness();
      try (Worker worker = lineup.worker(queue, lateness, WorkerOptions.defaults()).start()) {
        await()
            .atMost(Duration.ofSeconds(5))
            .until(() -> lateness.of("watched by the dead") != null);
      }
      assertThat(lateness.of("watched by the dead"))
          .as("ms late: waited for the watcher until its watch was overdue, then took over")
          .isBetween(SLACK.toMillis() - 20, SLACK.toMillis() + 1_000);
    }
  }

  @Test
  void aWatcherWhoseLeaseFillsItsSlotsHandsTheWatchOnSoTheNextJobStartsOnTime() throws Exception {
    QueueName queue = aFreshQueue();
    CountDownLatch finish = new CountDownLatch(1);
    Lateness lateness = new Lateness();
    JobHandler holdTheFirst =
        job -> {
          lateness.handle(job);
          if (job.payloadText().equals("first")) {
            finish.await();
          }
          return null;
        };
    try (Lineup lineup = anEngineWithoutSweeps()) {
      lineup.publish(queue, aDelayedJob("first", Duration.ofMillis(600)));
      lineup.publish(queue, aDelayedJob("second", Duration.ofMillis(650)));
      WorkerOptions one = WorkerOptions.defaults().withConcurrency(1);
      try (Worker a = lineup.worker(queue, holdTheFirst, one).start();
          Worker b = lineup.worker(queue, holdTheFirst, one).start()) {
        await().atMost(Duration.ofSeconds(5)).until(() -> lateness.of("second") != null);
        finish.countDown();
      }
      // Left to the watch's end, the second job would start SLACK after the first was due.
      assertThat(lateness.of("second")).as("ms late").isLessThan(ON_TIME.toMillis());
    }
  }

  @Test
  void aWatcherThatClosesHandsTheWatchOnSoTheJobStartsOnTime() throws Exception {
    QueueName queue = aFreshQueue();
    byte[] meta = KeySpace.queueKeys(queue)[KeySpace.META_INDEX];
    Lateness lateness = new Lateness();
    try (Lineup lineup = anEngineWithoutSweeps()) {
      lineup.publish(queue, aDelayedJob("after the watcher left", Duration.ofMillis(1_500)));
      long blocked = infoSum("clients", "blocked_clients");
      Worker watcher = lineup.worker(queue, lateness, WorkerOptions.defaults()).start();
      await()
          .atMost(Duration.ofSeconds(5))
          .until(() -> raw().hget(meta, bytes("due_watcher")) != null);
      try (Worker other = lineup.worker(queue, lateness, WorkerOptions.defaults()).start()) {
        // Both wait: the other has leased, found the watch taken, and follows it.
        await()
            .atMost(Duration.ofSeconds(5))
            .until(() -> infoSum("clients", "blocked_clients") >= blocked + 2);
        watcher.close();
        await()
            .atMost(Duration.ofSeconds(5))
            .until(() -> lateness.of("after the watcher left") != null);
      }
      assertThat(lateness.of("after the watcher left"))
          .as("ms late")
          .isLessThan(ON_TIME.toMillis());
    }
  }

  @Test
  void aLeaseOfNoWorkerIgnoresTheWatchAndSaysWhenTheJobIsDue() {
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngineWithoutSweeps()) {
      PublishResult job =
          lineup.publish(queue, aDelayedJob("due in a second", Duration.ofSeconds(1)));
      leaveAWatch(queue, "some worker", job.dueAt());
      Leases early = lineup.lease(queue, 1, Duration.ZERO);
      assertThat(early.jobs()).isEmpty();
      assertThat(early.retryAfter()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(1));
    }
  }

  /**
   * An engine without the background loops: their sweep promotes due jobs and wakes a consumer
   * every 500 ms, which would hide a watch that nobody keeps.
   */
  private Lineup anEngineWithoutSweeps() {
    return anEngine(options -> options.maintenance(false));
  }

  /** Writes the queue's due watch as {@code watcher}'s, for a job due at {@code dueAt}. */
  private void leaveAWatch(QueueName queue, String watcher, Instant dueAt) {
    raw()
        .hset(
            KeySpace.queueKeys(queue)[KeySpace.META_INDEX],
            Map.of(
                bytes("due_watcher"), bytes(watcher),
                bytes("due_watch_ms"), bytes(Long.toString(dueAt.toEpochMilli()))));
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** A handler that notes how late each job started, in ms, by its text. */
  private static final class Lateness implements JobHandler {
    private final Map<String, Long> late = new ConcurrentHashMap<>();

    @Override
    public byte[] handle(LeasedJob job) {
      late.putIfAbsent(job.payloadText(), System.currentTimeMillis() - job.dueAt().toEpochMilli());
      return null;
    }

    Long of(String text) {
      return late.get(text);
    }
  }
}
