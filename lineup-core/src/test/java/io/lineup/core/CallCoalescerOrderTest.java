package io.lineup.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The combining itself, without Redis: what the engine's combined-call tests check through Redis
 * (positions, lease order), here under a sender that is slow to hand a call over and answers at
 * random moments, so that calls sent by two threads at once would reach the wire out of order.
 */
class CallCoalescerOrderTest {
  private static final int THREADS = 8;
  private static final int REQUESTS_PER_THREAD = 400;

  /** An item: which thread submitted it, and its place among that thread's items. */
  private record Item(int thread, int seq) {}

  /**
   * Stands for the Redis client: a call reaches the "wire" only at the end of {@code send}, after a
   * random pause, and is answered later on another thread, each item answered by itself.
   */
  private static final class SlowWire implements CallCoalescer.Sender<String, Item, Item> {
    final List<Item> wire = Collections.synchronizedList(new ArrayList<>());
    final AtomicInteger sendersInside = new AtomicInteger();
    final AtomicInteger mostSendersInside = new AtomicInteger();
    final AtomicInteger calls = new AtomicInteger();
    private final ExecutorService answers = Executors.newFixedThreadPool(2);

    @Override
    public CompletableFuture<List<Item>> send(String key, List<Item> items) {
      int inside = sendersInside.incrementAndGet();
      mostSendersInside.accumulateAndGet(inside, Math::max);
      try {
        pause();
        wire.addAll(items);
      } finally {
        sendersInside.decrementAndGet();
      }
      calls.incrementAndGet();
      CompletableFuture<List<Item>> answer = new CompletableFuture<>();
      answers.execute(() -> {
        pause();
        answer.complete(List.copyOf(items));
      });
      return answer;
    }

    private static void pause() {
      long until = System.nanoTime() + ThreadLocalRandom.current().nextInt(0, 30_000);
      while (System.nanoTime() < until) {
        Thread.onSpinWait();
      }
      if (ThreadLocalRandom.current().nextInt(8) == 0) {
        Thread.yield();
      }
    }

    void close() {
      answers.shutdownNow();
    }
  }

  @Test
  void eachSubmittersItemsReachTheWireInTheOrderItSubmittedThemAndEachGetsItsOwnAnswers()
      throws Exception {
    SlowWire sender = new SlowWire();
    CallCoalescer<String, Item, Item> coalescer = new CallCoalescer<>(2, 1000, 1 << 20, sender);
    List<List<CompletableFuture<List<Item>>>> answers = new ArrayList<>();
    List<Thread> submitters = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      List<CompletableFuture<List<Item>>> mine = Collections.synchronizedList(new ArrayList<>());
      answers.add(mine);
      int thread = t;
      submitters.add(
          Thread.ofVirtual()
              .start(() -> {
                for (int seq = 0; seq < REQUESTS_PER_THREAD; seq++) {
                  mine.add(coalescer.submit("orders", List.of(new Item(thread, seq)), 100));
                }
              }));
    }
    for (Thread submitter : submitters) {
      submitter.join(TimeUnit.SECONDS.toMillis(30));
    }
    try {
      for (int t = 0; t < THREADS; t++) {
        List<CompletableFuture<List<Item>>> mine = answers.get(t);
        assertThat(mine).hasSize(REQUESTS_PER_THREAD);
        for (int seq = 0; seq < REQUESTS_PER_THREAD; seq++) {
          assertThat(mine.get(seq).get(30, TimeUnit.SECONDS)).containsExactly(new Item(t, seq));
        }
      }

      assertThat(sender.wire).hasSize(THREADS * REQUESTS_PER_THREAD);
      int[] next = new int[THREADS];
      for (Item item : sender.wire) {
        assertThat(item.seq())
            .as("item of thread %d", item.thread())
            .isEqualTo(next[item.thread()]);
        next[item.thread()]++;
      }
      assertThat(sender.mostSendersInside.get()).as("threads sending at once").isEqualTo(1);
      assertThat(sender.calls.get())
          .as("calls for %d requests", THREADS * REQUESTS_PER_THREAD)
          .isLessThan(THREADS * REQUESTS_PER_THREAD);
    } finally {
      sender.close();
    }
  }
}
