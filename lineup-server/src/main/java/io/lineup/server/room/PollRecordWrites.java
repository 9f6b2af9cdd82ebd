package io.lineup.server.room;

import io.lineup.core.RecordStore;
import io.lineup.core.RedisUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Writes joining tickets' poll records, combining the writes that arrive while {@value #IN_FLIGHT}
 * are under way into one (one HSET of many records): at a sale, many joins run at once, and one
 * command per join cost each join a command's worth of client CPU and Redis time. A write goes out
 * at once when fewer are under way, so a lone join waits no longer than before.
 */
final class PollRecordWrites {
  /** Writes under way at once. */
  static final int IN_FLIGHT = 2;

  /** Most records in one write; more wait for the next. */
  static final int MAX_RECORDS = 500;

  private record Pending(String ticket, String text, CompletableFuture<Void> stored) {}

  private final RecordStore polls;
  private final long timeoutMs;
  private final List<Pending> waiting = new ArrayList<>(); // guarded by this
  private int running; // guarded by this

  /**
   * @param polls the record store of poll records
   * @param timeout how long a write may go unanswered before it fails
   */
  PollRecordWrites(RecordStore polls, Duration timeout) {
    this.polls = polls;
    this.timeoutMs = timeout.toMillis();
  }

  /**
   * Stores or replaces a ticket's poll record, maybe together with others.
   *
   * @return completes once stored; every write ends within the timeout, so this one ends too; fails
   *     with the engine's exception as the cause ({@link RedisUnavailableException} when Redis did
   *     not answer in time)
   */
  CompletableFuture<Void> put(String ticket, String text) {
    Pending pending = new Pending(ticket, text, new CompletableFuture<>());
    synchronized (this) {
      if (running >= IN_FLIGHT || !waiting.isEmpty()) {
        waiting.add(pending);
        return pending.stored();
      }
      running++;
    }
    send(List.of(pending));
    return pending.stored();
  }

  private void send(List<Pending> batch) {
    Map<String, String> records = new LinkedHashMap<>();
    for (Pending p : batch) {
      records.put(p.ticket(), p.text()); // the same ticket twice: the later text wins, as in order
    }
    CompletableFuture<Void> write;
    try {
      write = polls.putAllAsync(records).orTimeout(timeoutMs, TimeUnit.MILLISECONDS);
    } catch (RuntimeException e) {
      write = CompletableFuture.failedFuture(e);
    }
    write.whenComplete((ok, error) -> {
      sendNext();
      RuntimeException failure = error == null ? null : failure(error);
      for (Pending p : batch) {
        if (failure == null) {
          p.stored().complete(null);
        } else {
          p.stored().completeExceptionally(failure);
        }
      }
    });
  }

  private RuntimeException failure(Throwable error) {
    Throwable cause =
        error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    if (cause instanceof TimeoutException) {
      return new RedisUnavailableException(
          "Redis did not store poll records within " + timeoutMs + " ms", cause);
    }
    return cause instanceof RuntimeException r
        ? r
        : new RedisUnavailableException("poll records were not stored", cause);
  }

  /** Sends what waited meanwhile as one write, or notes one write fewer under way. */
  private void sendNext() {
    List<Pending> batch;
    synchronized (this) {
      if (waiting.isEmpty()) {
        running--;
        return;
      }
      int take = Math.min(waiting.size(), MAX_RECORDS);
      batch = new ArrayList<>(waiting.subList(0, take));
      waiting.subList(0, take).clear();
    }
    send(batch);
  }
}
