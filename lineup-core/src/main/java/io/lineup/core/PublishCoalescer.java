package io.lineup.core;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * Combines publishes to one queue into fewer script calls, without making any publish wait longer
 * than it would anyway: a publish goes out at once while fewer than {@code callsInFlight} calls for
 * its queue are running; otherwise it waits for the next one to finish, and everything that waited
 * goes out together as one call. Alone, a publish is one call, as before; under load, one call
 * carries many, which is what the per-call cost of Redis scripts rewards (see docs/engine.md).
 *
 * <p>Each publish still gets its own results, in its own order, and its own failure: the jobs were
 * checked before they got here, so only Redis itself can fail a combined call, and then it fails
 * every publish in it. Jobs keep their arrival order: waiting publishes are combined in the order
 * they arrived, after every call sent before them.
 */
final class PublishCoalescer {
  /** Sends one script call for these jobs; must not block. */
  interface Sender {
    CompletableFuture<List<PublishResult>> send(QueueName queue, List<NewJob> jobs);
  }

  /**
   * Runs what follows a call: a virtual thread each, so a slow callback of a caller's holds up
   * nothing.
   */
  private static final Executor FOLLOW_UP =
      task -> Thread.ofVirtual().name("lineup-publish").start(task);

  private final int callsInFlight;
  private final Sender sender;
  private final Map<QueueName, Lane> lanes = new ConcurrentHashMap<>();

  /**
   * @param callsInFlight most calls in flight per queue; 0 sends every publish on its own
   */
  PublishCoalescer(int callsInFlight, Sender sender) {
    this.callsInFlight = callsInFlight;
    this.sender = sender;
  }

  /**
   * Publishes checked jobs. The future completes with their results in order, or fails with the
   * engine's exception as its cause.
   *
   * @param payloadBytes the jobs' payload bytes, to bound a combined call's size
   */
  CompletableFuture<List<PublishResult>> publish(
      QueueName queue, List<NewJob> jobs, long payloadBytes) {
    if (callsInFlight == 0) {
      return sendSafely(queue, jobs);
    }
    return lanes.computeIfAbsent(queue, Lane::new).submit(new Waiting(jobs, payloadBytes));
  }

  private CompletableFuture<List<PublishResult>> sendSafely(QueueName queue, List<NewJob> jobs) {
    try {
      return sender.send(queue, jobs);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(new CompletionException(e));
    }
  }

  /** A publish waiting for its queue's next call. */
  private record Waiting(
      List<NewJob> jobs, long payloadBytes, CompletableFuture<List<PublishResult>> result) {
    Waiting(List<NewJob> jobs, long payloadBytes) {
      this(jobs, payloadBytes, new CompletableFuture<>());
    }
  }

  /** One queue's calls in flight and the publishes waiting for them. */
  private final class Lane {
    private final QueueName queue;
    private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();
    private int running;

    Lane(QueueName queue) {
      this.queue = queue;
    }

    CompletableFuture<List<PublishResult>> submit(Waiting publish) {
      synchronized (this) {
        if (running >= callsInFlight || !waiting.isEmpty()) {
          waiting.add(publish);
        } else {
          running++;
          dispatch(List.of(publish));
        }
      }
      return publish.result();
    }

    /**
     * Sends one call; when it ends, sends whatever waited meanwhile, then hands out the results.
     * Called with the lane's lock held, so calls leave in the order their publishes arrived.
     */
    private void dispatch(List<Waiting> batch) {
      // The follow-up runs on a thread of its own, never on the Redis client's I/O thread: a
      // command
      // sent from that thread would be written at once, ahead of commands other threads have
      // already handed to it, and jobs would then arrive out of order.
      sendSafely(queue, jobsOf(batch))
          .whenCompleteAsync(
              (results, error) -> {
                sendNext();
                settle(batch, results, error);
              },
              FOLLOW_UP);
    }

    /** Sends the publishes that waited, combined, or notes one call fewer in flight. */
    private void sendNext() {
      synchronized (this) {
        List<Waiting> batch = new ArrayList<>();
        int jobs = 0;
        long bytes = 0;
        while (!waiting.isEmpty()) {
          Waiting next = waiting.peek();
          if (next.result().isDone()) {
            // Its caller gave up waiting (a timeout cancelled it): it is not published.
            waiting.poll();
            continue;
          }
          if (!batch.isEmpty()
              && (jobs + next.jobs().size() > Limits.MAX_BATCH
                  || bytes + next.payloadBytes() > LineupOptions.COMBINED_PUBLISH_BYTES)) {
            break;
          }
          batch.add(waiting.poll());
          jobs += next.jobs().size();
          bytes += next.payloadBytes();
        }
        if (batch.isEmpty()) {
          running--;
        } else {
          dispatch(batch);
        }
      }
    }
  }

  private static List<NewJob> jobsOf(List<Waiting> batch) {
    if (batch.size() == 1) {
      return batch.get(0).jobs();
    }
    List<NewJob> jobs = new ArrayList<>();
    for (Waiting publish : batch) {
      jobs.addAll(publish.jobs());
    }
    return jobs;
  }

  /** Hands each publish its slice of the combined results, or the call's failure. */
  private static void settle(List<Waiting> batch, List<PublishResult> results, Throwable error) {
    if (error != null) {
      for (Waiting publish : batch) {
        publish.result().completeExceptionally(error);
      }
      return;
    }
    int from = 0;
    for (Waiting publish : batch) {
      int to = from + publish.jobs().size();
      publish
          .result()
          .complete(from == 0 && to == results.size() ? results : slice(results, from, to));
      from = to;
    }
  }

  private static List<PublishResult> slice(List<PublishResult> results, int from, int to) {
    return List.copyOf(results.subList(from, to));
  }
}
