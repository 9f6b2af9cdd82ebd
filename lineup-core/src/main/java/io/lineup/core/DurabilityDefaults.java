package io.lineup.core;

import io.lineup.core.internal.store.RedisStore;
import io.lineup.core.model.Durability;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSetting;
import io.lineup.core.model.SettingsCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.IntFunction;

/**
 * Each queue's {@link QueueSetting#DURABLE_REPLICAS}, as publishes that name no {@link Durability}
 * need it, read from Redis at most about once a second per queue instead of once per publish.
 *
 * <p>The first publish to a queue waits for one read; later ones take the value known, and a value
 * older than {@link #FRESH_NANOS} is read again in the background. So a change made by another
 * instance applies to this one's publishes within about a second; one made through this engine
 * ({@link #forget}) at once.
 *
 * <p>Publishes keep their order while the first read is under way: those that arrive meanwhile wait
 * in line and are sent in arrival order once it ends, and none that comes later overtakes them.
 */
final class DurabilityDefaults {
  /** How long a value read is used before it is read again. */
  static final long FRESH_NANOS = 1_000_000_000L;

  /** Most queues remembered; past it the memory starts again (a queue then costs one read). */
  private static final int MAX_QUEUES = 10_000;

  private record Known(int replicas, long readAtNanos) {}

  private final RedisStore store;
  private final Map<QueueName, Known> known = new ConcurrentHashMap<>();
  private final Set<QueueName> reading = ConcurrentHashMap.newKeySet();

  /** Per queue, the sends waiting for its first read, in arrival order; guarded by {@code this}. */
  private final Map<QueueName, List<Waiter<?>>> waiting = new ConcurrentHashMap<>();

  DurabilityDefaults(RedisStore store) {
    this.store = store;
  }

  /** Reads the setting again in the background when the value known is older than a second. */
  private void refreshIfOld(QueueName queue, Known value) {
    if (System.nanoTime() - value.readAtNanos() > FRESH_NANOS && reading.add(queue)) {
      read(queue)
          .whenComplete((replicas, error) -> reading.remove(queue))
          .exceptionally(ignored -> 0); // the known value stays until a read succeeds
    }
  }

  /**
   * Calls {@code send} with the queue's setting: at once when it is known and nothing waits for it,
   * else in arrival order after the first read, on {@code after} (never on Redis's I/O thread,
   * where a command would overtake those other threads have already handed over). Fails like the
   * store's calls when that read fails.
   *
   * @param send sends the publish for this many replicas; must not block
   */
  <T> CompletableFuture<T> inOrder(
      QueueName queue, IntFunction<CompletableFuture<T>> send, Executor after) {
    Known current = known.get(queue);
    if (current != null && !waiting.containsKey(queue)) {
      refreshIfOld(queue, current);
      return send.apply(current.replicas());
    }
    synchronized (this) {
      List<Waiter<?>> line = waiting.get(queue);
      if (line == null) {
        Known value = known.get(queue);
        if (value != null) {
          return send.apply(value.replicas()); // the line was sent meanwhile
        }
        line = new ArrayList<>();
        waiting.put(queue, line);
        read(queue).whenCompleteAsync((replicas, error) -> sendLine(queue, replicas, error), after);
      }
      Waiter<T> waiter = new Waiter<>(send, new CompletableFuture<>());
      line.add(waiter);
      return waiter.answer();
    }
  }

  private synchronized void sendLine(QueueName queue, Integer replicas, Throwable error) {
    // The line leaves the map only once all of it is sent: the value is already known, so a
    // publish arriving meanwhile that found no line would be sent at once, ahead of the line.
    List<Waiter<?>> line = waiting.get(queue);
    for (int i = 0; i < line.size(); i++) {
      Waiter<?> waiter = line.get(i);
      if (error == null) {
        waiter.send(replicas);
      } else {
        waiter.answer().completeExceptionally(error);
      }
    }
    waiting.remove(queue);
  }

  /** A publish waiting for its queue's first read, and the future its caller holds. */
  private record Waiter<T>(IntFunction<CompletableFuture<T>> sender, CompletableFuture<T> answer) {
    void send(int replicas) {
      CompletableFuture<T> sent;
      try {
        sent = sender.apply(replicas);
      } catch (RuntimeException e) {
        answer.completeExceptionally(e);
        return;
      }
      sent.whenComplete((value, error) -> {
        if (error != null) {
          answer.completeExceptionally(error);
        } else {
          answer.complete(value);
        }
      });
    }
  }

  /** Whether the queue is known to need no replicas, so a publish needs no longer wait. */
  boolean knownNone(QueueName queue) {
    Known value = known.get(queue);
    return value != null && value.replicas() == 0;
  }

  /** Drops what is known of a queue whose settings this engine just changed. */
  void forget(QueueName queue) {
    known.remove(queue);
  }

  private CompletableFuture<Integer> read(QueueName queue) {
    QueueSetting setting = QueueSetting.DURABLE_REPLICAS;
    return store
        .storedSetting(queue, SettingsCodec.storedName(setting))
        .thenApply(text -> {
          int replicas = text == null ? 0 : (Integer) SettingsCodec.parseStored(setting, text);
          if (known.size() >= MAX_QUEUES) {
            known.clear();
          }
          known.put(queue, new Known(replicas, System.nanoTime()));
          return replicas;
        });
  }
}
