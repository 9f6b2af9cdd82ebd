package io.lineup.server.room;

import io.lineup.core.RecordStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

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
  private final List<Pending> waiting = new ArrayList<>(); // guarded by this
  private int running; // guarded by this

  PollRecordWrites(RecordStore polls) {
    this.polls = polls;
  }

  /**
   * Stores or replaces a ticket's poll record, maybe together with others.
   *
   * @return completes once stored; fails like {@link RecordStore#putAllAsync} (the engine's
   *     exception as the cause)
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
      write = polls.putAllAsync(records);
    } catch (RuntimeException e) {
      write = CompletableFuture.failedFuture(new CompletionException(e));
    }
    write.whenComplete((ok, error) -> {
      sendNext();
      for (Pending p : batch) {
        if (error == null) {
          p.stored().complete(null);
        } else {
          p.stored()
              .completeExceptionally(
                  error instanceof CompletionException && error.getCause() != null
                      ? error.getCause()
                      : error);
        }
      }
    });
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
