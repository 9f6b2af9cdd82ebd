package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.Leases;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.PublishResult;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Order in the line: higher priority first, FIFO within a priority, and the reported position is
 * the lease order, also while publishers and a consumer run at once. Runs on both topologies
 * ({@link PriorityOrderOnStandaloneTest}, {@link PriorityOrderOnClusterTest}).
 */
abstract class PriorityOrderTest extends EngineSuite {
  record Published(String id, int priority, int sequence) {}

  @Test
  void higherPriorityLeavesFirstFifoWithinAPriorityAndThePositionIsTheLeaseOrder() {
    QueueName queue = aFreshQueue();
    Random random = new Random(42);
    try (Lineup lineup = anEngine()) {
      List<Published> published = new ArrayList<>();
      for (int i = 0; i < 1000; i++) {
        int priority = random.nextInt(7) - 3;
        published.add(
            new Published(
                lineup.publish(queue, aJob("j" + i).priority(priority)).id(), priority, i));
      }
      List<Published> expected =
          published.stream()
              .sorted(
                  Comparator.comparingInt(Published::priority)
                      .reversed()
                      .thenComparingInt(Published::sequence))
              .toList();
      Map<String, Long> positions = new HashMap<>();
      for (Published job : published) {
        positions.put(job.id(), lineup.position(queue, job.id()));
      }

      List<String> leased = new ArrayList<>();
      Leases leases;
      while (!(leases = lineup.lease(queue, 7, Duration.ZERO)).isEmpty()) {
        leases.jobs().forEach(job -> leased.add(job.id()));
      }

      assertThat(leased).containsExactlyElementsOf(expected.stream().map(Published::id).toList());
      for (int i = 0; i < leased.size(); i++) {
        assertThat(positions.get(leased.get(i)))
            .as("position of the job leased %d-th", i)
            .isEqualTo(i);
      }
    }
  }

  @Test
  void aBulkPublishOfMixedPrioritiesReportsEachJobsTruePosition() {
    QueueName queue = aFreshQueue();
    Random random = new Random(7);
    try (Lineup lineup = anEngine()) {
      for (int round = 0; round < 3; round++) {
        List<NewJob> jobs = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
          jobs.add(aJob("r" + round + "-" + i).priority(random.nextInt(5) - 2));
        }
        List<PublishResult> results = lineup.publishAll(queue, jobs);
        for (PublishResult result : results) {
          assertThat(result.position())
              .as("reported position of %s", result.id())
              .isEqualTo(lineup.position(queue, result.id()));
        }
      }
      List<PublishResult> withDuplicates =
          lineup.publishAll(
              queue,
              List.of(
                  aJob("u1").uniqueKey("same", Duration.ofMinutes(1)).priority(9),
                  aJob("u2").uniqueKey("same", Duration.ofMinutes(1)),
                  aJob("i1").id("twice"),
                  aJob("i2").id("twice")));
      assertThat(withDuplicates)
          .extracting(PublishResult::created)
          .containsExactly(true, false, true, false);
      assertThat(withDuplicates.get(1).id()).isEqualTo(withDuplicates.get(0).id());
      assertThat(withDuplicates.get(1).position())
          .isZero()
          .isEqualTo(withDuplicates.get(0).position());
      assertThat(withDuplicates.get(3).position()).isEqualTo(lineup.position(queue, "twice"));
      assertThat(lineup.stats(queue).ready()).isEqualTo(902);
    }
  }

  record Event(String id, int producer, int priority, int sequence, long publishedNanos) {}

  @Test
  void orderStaysExactWhilePublishersAndAConsumerRunAtOnce() throws Exception {
    QueueName queue = aFreshQueue();
    Map<String, Event> byId = new ConcurrentHashMap<>();
    List<Event> leasedInOrder = new ArrayList<>();
    List<Long> leaseStartNanos = new ArrayList<>();
    AtomicBoolean publishing = new AtomicBoolean(true);
    try (Lineup lineup = anEngine();
        ExecutorService producers = Executors.newFixedThreadPool(4)) {
      // The jobs stay leased, never acked: a time to run longer than any run keeps a busy machine's
      // slow run from seeing them reclaimed and leased twice.
      lineup.configure(queue, QueueSettings.builder().timeToRun(Duration.ofMinutes(30)).build());
      List<Future<?>> running = new ArrayList<>();
      for (int p = 0; p < 4; p++) {
        int producer = p;
        running.add(
            producers.submit(() -> {
              Random random = new Random(producer);
              for (int i = 0; i < 500; i++) {
                int priority = random.nextInt(3);
                String id = lineup.publish(queue, aJob(producer + ":" + i).priority(priority)).id();
                byId.put(id, new Event(id, producer, priority, i, System.nanoTime()));
              }
              return null;
            }));
      }
      Thread watcher =
          Thread.ofVirtual()
              .start(() -> {
                for (Future<?> f : running) {
                  try {
                    f.get();
                  } catch (Exception e) {
                    throw new IllegalStateException(e);
                  }
                }
                publishing.set(false);
              });
      while (publishing.get() || lineup.stats(queue).ready() > 0) {
        long start = System.nanoTime();
        for (LeasedJob job : lineup.lease(queue, 1, Duration.ofMillis(50)).jobs()) {
          leaseStartNanos.add(start);
          leasedInOrder.add(new Event(job.id(), -1, job.priority(), -1, 0));
        }
      }
      watcher.join();
    }
    assertThat(leasedInOrder).hasSize(2000);
    Map<String, Integer> leaseIndex = new HashMap<>();
    for (int i = 0; i < leasedInOrder.size(); i++) {
      leaseIndex.put(leasedInOrder.get(i).id(), i);
    }
    // FIFO within a priority for each producer.
    Map<String, Integer> lastSequence = new HashMap<>();
    for (Event leased : leasedInOrder) {
      Event event = byId.get(leased.id());
      String lane = event.producer() + "/" + event.priority();
      assertThat(event.sequence())
          .as("FIFO in lane %s", lane)
          .isGreaterThan(lastSequence.getOrDefault(lane, -1));
      lastSequence.put(lane, event.sequence());
    }
    // A job published before a lease began, with a higher priority than the job that lease took,
    // must have been leased earlier.
    for (int i = 0; i < leasedInOrder.size(); i++) {
      Event taken = byId.get(leasedInOrder.get(i).id());
      long began = leaseStartNanos.get(i);
      for (Event other : byId.values()) {
        if (other.priority() > taken.priority() && other.publishedNanos() < began) {
          assertThat(leaseIndex.get(other.id()))
              .as(
                  "job %s (priority %d) was waiting when %s (priority %d) was leased",
                  other.id(), other.priority(), taken.id(), taken.priority())
              .isLessThan(i);
        }
      }
    }
  }
}
