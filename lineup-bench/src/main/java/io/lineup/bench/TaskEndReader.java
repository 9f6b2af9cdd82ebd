package io.lineup.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Reads how each task of an endpoint ended, soon after its deadline: an endpoint keeps at most
 * 10,000 finished tasks (the engine's {@code retention_max}), so a long run cannot read them all at
 * its end. A task read while still queued or running is read again {@value #AGAIN_MS} ms later.
 * Reads peek ({@code ?peek=true}), so they shorten nothing.
 */
final class TaskEndReader implements AutoCloseable {
  /** Statuses a task ends in. */
  static final Set<String> FINAL = Set.of("succeeded", "failed", "timed_out", "cancelled");

  /** Wait after a task's deadline before its first read, in milliseconds. */
  static final long AFTER_DEADLINE_MS = 2_000;

  /** Wait before reading an unfinished task again, in milliseconds. */
  static final long AGAIN_MS = 1_000;

  /** Reading threads. */
  static final int READERS = 4;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpApi api;
  private final String tasksPath;
  private final DelayQueue<Due> due = new DelayQueue<>();
  private final Map<String, String> ends = new ConcurrentHashMap<>();
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private final List<Thread> readers = new ArrayList<>();

  private record Due(String id, long atNanos) implements Delayed {
    @Override
    public long getDelay(TimeUnit unit) {
      return unit.convert(atNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
    }

    @Override
    public int compareTo(Delayed other) {
      return Long.compare(atNanos, ((Due) other).atNanos);
    }
  }

  /**
   * Starts the readers.
   *
   * @param tasksPath {@code /v1/endpoints/{ns}/{endpoint}/tasks}
   */
  TaskEndReader(HttpApi api, String tasksPath) {
    this.api = api;
    this.tasksPath = tasksPath;
    for (int i = 0; i < READERS; i++) {
      readers.add(Thread.ofPlatform().daemon().name("bench-task-end-" + i).start(this::read));
    }
  }

  /** Reads task {@code id} once its deadline ({@link System#currentTimeMillis()} scale) passed. */
  void readAfter(String id, long deadlineEpochMillis) {
    long delayMs = deadlineEpochMillis + AFTER_DEADLINE_MS - System.currentTimeMillis();
    due.add(new Due(id, System.nanoTime() + Math.max(0, delayMs) * 1_000_000));
  }

  /**
   * Waits until every task given has been read ended.
   *
   * @return task id → the status it ended in ({@code not_found} when the server no longer knew it)
   * @throws IllegalStateException when a read failed, or some task had not ended by {@code timeout}
   */
  Map<String, String> awaitEnds(int tasks, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (ends.size() < tasks) {
      if (failure.get() != null) {
        throw new IllegalStateException("reading a task failed: " + failure.get(), failure.get());
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            (tasks - ends.size()) + " tasks had not ended " + timeout + " after the last submit");
      }
      Pause.millis(100);
    }
    return Map.copyOf(ends);
  }

  private void read() {
    try {
      while (true) {
        Due next = due.take();
        Http11Connection.Answer answer =
            api.get(tasksPath + "/" + next.id() + "?peek=true", 200, 404);
        String status =
            answer.status() == 404
                ? "not_found"
                : JSON.readTree(answer.body()).path("status").asText();
        if (status.equals("not_found") || FINAL.contains(status)) {
          ends.put(next.id(), status);
        } else {
          due.add(new Due(next.id(), System.nanoTime() + AGAIN_MS * 1_000_000));
        }
      }
    } catch (InterruptedException e) {
      // closed
    } catch (IOException | RuntimeException e) {
      failure.compareAndSet(null, e);
    }
  }

  @Override
  public void close() {
    readers.forEach(Thread::interrupt);
  }
}
