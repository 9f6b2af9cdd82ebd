package io.lineup.core;

import static io.lineup.core.Fixtures.aDelayedJob;
import static io.lineup.core.Fixtures.aFreshQueue;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lineup.consumer.JobHandler;
import io.lineup.consumer.WorkerOptions;
import io.lineup.core.internal.store.KeySpace;
import io.lineup.core.internal.store.RedisGateway;
import io.lineup.core.internal.store.RedisStore;
import io.lineup.core.internal.store.ScriptReplies.LeaseReply;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.Leases;
import io.lineup.core.model.PublishResult;
import io.lineup.core.model.QueueName;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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
@Timeout(value = 180, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
abstract class DueWatchTest extends EngineSuite {
  /** How long after the watched due time the others wait: DUE_WATCH_SLACK_MS of the script. */
  static final Duration SLACK = Duration.ofMillis(200);

  @Test
  void twoIdleWorkersSharingADueWatchLeaseEveryDelayedJobOnce() throws Exception {
    QueueName queue = aFreshQueue();
    int jobs = 30;
    try (Lineup one = anEngineWithoutSweeps();
        Lineup other = anEngineWithoutSweeps();
        MonitoredCalls calls = MonitoredCalls.on(nodeOf(queue))) {
      for (int i = 0; i < jobs; i++) {
        one.publish(queue, aDelayedJob("tick " + i, Duration.ofMillis(500 + 20L * i)));
      }
      AtomicInteger handled = new AtomicInteger();
      Lateness lateness = new Lateness();
      JobHandler<LeasedJob> count =
          job -> {
            lateness.handle(job);
            handled.incrementAndGet();
            return null;
          };
      WorkerOptions four = WorkerOptions.defaults().withConcurrency(4);
      try (Worker first = one.worker(queue, count, four).start();
          Worker second = other.worker(queue, count, four).start()) {
        await().atMost(Duration.ofSeconds(60)).until(() -> handled.get() == jobs);
      }
      assertThat(handled).as("each job handled once").hasValue(jobs);
      assertThat(lateness.count()).as("distinct jobs handled").isEqualTo(jobs);
      Map<String, Long> leases = calls.byClient("\"lineup_lease_");
      assertThat(leases).as("lease calls by engine connection").hasSize(2);
      long latest = lateness.latest();
      // Wakes the scripts pushed: a watcher whose lease filled its slots hands the watch on, and
      // jobs left in the line wake another consumer; each may cost the follower a lease with a
      // job and one after it. Few at rest; on a busy machine handlers finish late, the watcher's
      // slots fill and the wakes come often (issue 49: 73 and 12 calls in a run beside two busy
      // loops, every job leased within 80 ms of its due time).
      long wakes = calls.scriptCommands("\"rpush\"", ":wake\"");
      System.out.printf(
          "due watch: lease calls %s; jobs leased at most %d ms after their due time; %d wakes%n",
          leases, latest, wakes);
      // How often the follower leased is printed, not asserted: it wakes when the watch is SLACK
      // overdue and when a script wakes it, and on a busy machine both come as often as the
      // scheduler makes them (issue 49: 37 calls with 3 wakes and every job leased within 200 ms,
      // beside a parallel build). The follower's wait itself, the decision that makes it rare, is
      // asserted on a fixed clock by the test after this one.
    }
  }

  @Test
  void aFollowerWaitsUntilTheWatchIsTheSlackOverdueAndTheWatcherUntilTheJobIsDue() {
    ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine(options -> options.maintenance(false).timeSource(clock));
        RedisStore store = aStoreOn(clock)) {
      lineup.publish(queue, aDelayedJob("due in a second", Duration.ofSeconds(1)));
      LeaseReply watcher = store.sendLease(queue, 4, List.of(), "watcher").await();
      LeaseReply follower = store.sendLease(queue, 4, List.of(), "follower").await();
      assertThat(watcher.jobs()).isEmpty();
      assertThat(follower.jobs()).isEmpty();
      assertThat(watcher.waitMicros())
          .as("the watcher waits until the job is due")
          .isEqualTo(1_000_000);
      assertThat(follower.waitMicros())
          .as("the follower waits until the watch is SLACK overdue")
          .isEqualTo(1_000_000 + SLACK.toMillis() * 1000);
      assertThat(watchOf(queue)).isEqualTo("watcher");

      // The watcher renews its watch; the follower, leasing again, still follows it.
      clock.advance(Duration.ofMillis(400));
      assertThat(store.sendLease(queue, 4, List.of(), "watcher").await().waitMicros())
          .isEqualTo(600_000);
      assertThat(store.sendLease(queue, 4, List.of(), "follower").await().waitMicros())
          .isEqualTo(600_000 + SLACK.toMillis() * 1000);
    }
  }

  @Test
  void aWatcherWhoseLeaseFillsItsSlotsGivesTheWatchUp() {
    ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    QueueName queue = aFreshQueue();
    try (Lineup lineup = anEngine(options -> options.maintenance(false).timeSource(clock));
        RedisStore store = aStoreOn(clock)) {
      lineup.publish(queue, aDelayedJob("first", Duration.ofMillis(600)));
      lineup.publish(queue, aDelayedJob("second", Duration.ofMillis(650)));
      store.sendLease(queue, 1, List.of(), "watcher").await();
      assertThat(watchOf(queue)).isEqualTo("watcher");
      clock.advance(Duration.ofMillis(600));
      LeaseReply full = store.sendLease(queue, 1, List.of(), "watcher").await();
      assertThat(full.jobs()).extracting(LeasedJob::payloadText).containsExactly("first");
      assertThat(watchOf(queue)).as("given up by the lease that filled its one slot").isNull();
      // The next consumer to lease takes the watch for the second at once.
      LeaseReply next = store.sendLease(queue, 1, List.of(), "other").await();
      assertThat(next.waitMicros()).isEqualTo(50_000);
      assertThat(watchOf(queue)).isEqualTo("other");
    }
  }

  /** A store of the engine's internals on the suite's Redis, reading {@code clock}. */
  private RedisStore aStoreOn(ManualClock clock) {
    LineupOptions options = LineupOptions.builder(redis().uri()).timeSource(clock).build();
    return new RedisStore(
        new RedisGateway(
            options.redisUri(), options.commandTimeout(), options.maxWaitingConnections(), null),
        clock::scriptArgument);
  }

  /** The queue's due watcher, null when none. */
  private String watchOf(QueueName queue) {
    byte[] watcher =
        raw().hget(KeySpace.queueKeys(queue)[KeySpace.META_INDEX], bytes("due_watcher"));
    return watcher == null ? null : new String(watcher, UTF_8);
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
            .atMost(Duration.ofSeconds(60))
            .until(() -> lateness.of("watched by the dead") != null);
      }
      // No upper bound: taking over is shown by the lease itself, and how soon after the slack it
      // came is up to how busy the machine is.
      assertThat(lateness.of("watched by the dead"))
          .as("ms late on the Redis clock: waited for the watcher until its watch was overdue")
          .isGreaterThanOrEqualTo(SLACK.toMillis() - 20);
    }
  }

  @Test
  void aWatcherThatClosesHandsTheWatchToTheOtherAtOnce() throws Exception {
    QueueName queue = aFreshQueue();
    byte[] meta = KeySpace.queueKeys(queue)[KeySpace.META_INDEX];
    Lateness lateness = new Lateness();
    try (Lineup lineup = anEngineWithoutSweeps()) {
      // Due in a minute: the hand-on is seen in the watch itself, long before the job falls due,
      // not in how soon after its due time a busy machine leased it (issue 49).
      lineup.publish(queue, aDelayedJob("after the watcher left", Duration.ofMinutes(1)));
      long blocked = infoSum("clients", "blocked_clients");
      Worker watcher = lineup.worker(queue, lateness, WorkerOptions.defaults()).start();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> raw().hget(meta, bytes("due_watcher")) != null);
      String watcherName = new String(raw().hget(meta, bytes("due_watcher")), UTF_8);
      try (Worker other = lineup.worker(queue, lateness, WorkerOptions.defaults()).start()) {
        // Both wait: the other has leased, found the watch taken, and follows it.
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> infoSum("clients", "blocked_clients") >= blocked + 2);
        watcher.close();
        // Left to the watch's end, the other would take the watch over only SLACK after the job
        // fell due, a minute from now.
        await()
            .atMost(Duration.ofSeconds(40))
            .until(() -> {
              byte[] now = raw().hget(meta, bytes("due_watcher"));
              return now != null && !new String(now, UTF_8).equals(watcherName);
            });
      }
      assertThat(lateness.of("after the watcher left")).as("not leased before it is due").isNull();
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

  /**
   * A handler that notes how late each job was leased, in ms on the Redis clock (its lease time
   * less its due time, both the server's), by its text: what the engine decided, not when a busy
   * machine got round to running the handler.
   */
  private static final class Lateness implements JobHandler<LeasedJob> {
    private final Map<String, Long> late = new ConcurrentHashMap<>();

    @Override
    public byte[] handle(LeasedJob job) {
      late.putIfAbsent(
          job.payloadText(), job.leasedAt().toEpochMilli() - job.dueAt().toEpochMilli());
      return null;
    }

    Long of(String text) {
      return late.get(text);
    }

    /** How many distinct jobs were handled. */
    int count() {
      return late.size();
    }

    /** The most any job was late, ms; 0 before any. */
    long latest() {
      return late.values().stream().mapToLong(Long::longValue).max().orElse(0);
    }
  }
}
