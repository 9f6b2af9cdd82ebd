package io.lineup.core;

import io.lineup.core.model.Limits;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * Combines requests to one queue (publishes, acks), or to one record collection (record writes),
 * into fewer calls, without making any request wait longer than it would anyway: a request goes out
 * at once while fewer than {@code callsInFlight} calls for its key are running; otherwise it waits
 * for the next one to finish, and everything that waited goes out together as one call. Alone, a
 * request is one call, as before; under load, one call carries many, which is what the per-call
 * cost of Redis scripts rewards (see docs/engine.md, "Combined calls").
 *
 * <p>Each request still gets its own answers, in its own order, and its own failure: its items were
 * checked before they got here, so only Redis itself can fail a combined call, and then it fails
 * every request in it. Items keep their arrival order: waiting requests are combined in the order
 * they arrived, after every call sent before them.
 *
 * @param <K> what requests are combined by (a queue, a record collection)
 * @param <I> what a request carries (a job to publish, an ack, a record)
 * @param <O> the answer for one item
 */
final class CallCoalescer<K, I, O> {
  /** Sends one call for these items; must not block. */
  interface Sender<K, I, O> {
    CompletableFuture<List<O>> send(K key, List<I> items);
  }

  /**
   * Runs what follows a call: a virtual thread each, so a slow callback of a caller's holds up
   * nothing.
   */
  private static final Executor FOLLOW_UP =
      task -> Thread.ofVirtual().name("lineup-combined-call").start(task);

  private final int callsInFlight;
  private final int maxItems;
  private final long maxBytes;
  private final Sender<K, I, O> sender;
  private final Map<K, Lane> lanes = new ConcurrentHashMap<>();

  /**
   * @param callsInFlight most calls in flight per key; 0 sends every request on its own
   * @param maxItems most items waiting requests are combined into (one request may carry more)
   * @param maxBytes most bytes, as the caller weighs items, waiting requests are combined into
   */
  CallCoalescer(int callsInFlight, int maxItems, long maxBytes, Sender<K, I, O> sender) {
    this.callsInFlight = callsInFlight;
    this.maxItems = maxItems;
    this.maxBytes = maxBytes;
    this.sender = sender;
  }

  /**
   * Sends checked items, maybe together with other requests' items. The future completes with their
   * answers in order, or fails with the engine's exception as its cause.
   *
   * @param bytes the items' weight in bytes, to bound a combined call's size
   */
  CompletableFuture<List<O>> submit(K key, List<I> items, long bytes) {
    if (callsInFlight == 0) {
      return sendSafely(key, items);
    }
    return lanes.computeIfAbsent(key, Lane::new).submit(new Waiting<>(items, bytes));
  }

  /**
   * A coalescer as the engine's options set it: their calls in flight per queue, at most {@link
   * Limits#MAX_BATCH} items and {@link LineupOptions#COMBINED_CALL_BYTES} bytes per combined call.
   */
  static <K, I, O> CallCoalescer<K, I, O> of(LineupOptions options, Sender<K, I, O> sender) {
    return new CallCoalescer<>(
        options.callsInFlightPerQueue(),
        Limits.MAX_BATCH,
        LineupOptions.COMBINED_CALL_BYTES,
        sender);
  }

  private CompletableFuture<List<O>> sendSafely(K key, List<I> items) {
    try {
      return sender.send(key, items);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(new CompletionException(e));
    }
  }

  /** A request waiting for its key's next call. */
  private record Waiting<I, O>(List<I> items, long bytes, CompletableFuture<List<O>> answers) {
    Waiting(List<I> items, long bytes) {
      this(items, bytes, new CompletableFuture<>());
    }
  }

  /**
   * One key's calls in flight and the requests waiting for them.
   *
   * <p>The lock guards only the two queues and the counts; calls are sent outside it. Why: sending
   * hands the call to the Redis client, which wakes its I/O thread (a system call), and other
   * requests for the key spun on the lock meanwhile, a tenth of a busy server's CPU. Order is kept
   * by sending from one thread at a time: a call is queued in {@code outgoing} under the lock, in
   * the order its requests arrived, and whichever thread finds no one sending sends the queue,
   * first in, first out, until it is empty.
   */
  private final class Lane {
    private final K key;
    private final ArrayDeque<Waiting<I, O>> waiting = new ArrayDeque<>();
    private final ArrayDeque<List<Waiting<I, O>>> outgoing = new ArrayDeque<>();
    private int running;
    private boolean sending;

    Lane(K key) {
      this.key = key;
    }

    CompletableFuture<List<O>> submit(Waiting<I, O> request) {
      boolean mustSend;
      synchronized (this) {
        if (running >= callsInFlight || !waiting.isEmpty()) {
          waiting.add(request);
          return request.answers();
        }
        running++;
        mustSend = queueCall(List.of(request));
      }
      if (mustSend) {
        sendQueued();
      }
      return request.answers();
    }

    /**
     * Queues one call behind those queued before it. Called with the lock held.
     *
     * @return true when the caller is now the one sending and must call {@link #sendQueued()}
     */
    private boolean queueCall(List<Waiting<I, O>> batch) {
      outgoing.add(batch);
      if (sending) {
        return false;
      }
      sending = true;
      return true;
    }

    /**
     * Sends the queued calls in order until none is left. At most {@code callsInFlight} calls are
     * queued or running at once, so this ends after a few.
     */
    private void sendQueued() {
      while (true) {
        List<Waiting<I, O>> batch;
        synchronized (this) {
          batch = outgoing.poll();
          if (batch == null) {
            sending = false;
            return;
          }
        }
        dispatch(batch);
      }
    }

    /**
     * Sends one call; when it ends, sends whatever waited meanwhile, then hands out the answers.
     */
    private void dispatch(List<Waiting<I, O>> batch) {
      // The follow-up runs on a thread of its own, never on the Redis client's I/O thread: a
      // command sent from that thread would be written at once, ahead of commands other threads
      // have already handed to it, and items would then arrive out of order.
      sendSafely(key, itemsOf(batch))
          .whenCompleteAsync(
              (answers, error) -> {
                sendNext();
                settle(batch, answers, error);
              },
              FOLLOW_UP);
    }

    /** Sends the requests that waited, combined, or notes one call fewer in flight. */
    private void sendNext() {
      boolean mustSend = false;
      synchronized (this) {
        List<Waiting<I, O>> batch = new ArrayList<>();
        int items = 0;
        long bytes = 0;
        while (!waiting.isEmpty()) {
          Waiting<I, O> next = waiting.peek();
          if (next.answers().isDone()) {
            // Its caller gave up waiting (a timeout cancelled it): it is not sent.
            waiting.poll();
            continue;
          }
          if (!batch.isEmpty()
              && (items + next.items().size() > maxItems || bytes + next.bytes() > maxBytes)) {
            break;
          }
          batch.add(waiting.poll());
          items += next.items().size();
          bytes += next.bytes();
        }
        if (batch.isEmpty()) {
          running--;
        } else {
          mustSend = queueCall(batch);
        }
      }
      if (mustSend) {
        sendQueued();
      }
    }
  }

  private static <I, O> List<I> itemsOf(List<Waiting<I, O>> batch) {
    if (batch.size() == 1) {
      return batch.get(0).items();
    }
    List<I> items = new ArrayList<>();
    for (Waiting<I, O> request : batch) {
      items.addAll(request.items());
    }
    return items;
  }

  /** Hands each request its slice of the combined answers, or the call's failure. */
  private static <I, O> void settle(List<Waiting<I, O>> batch, List<O> answers, Throwable error) {
    if (error != null) {
      for (Waiting<I, O> request : batch) {
        request.answers().completeExceptionally(error);
      }
      return;
    }
    int from = 0;
    for (Waiting<I, O> request : batch) {
      int to = from + request.items().size();
      request
          .answers()
          .complete(
              from == 0 && to == answers.size() ? answers : List.copyOf(answers.subList(from, to)));
      from = to;
    }
  }
}
