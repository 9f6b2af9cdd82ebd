package io.lineup.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs a numbered operation a given number of times with a fixed number of calls in flight: either
 * blocking calls from that many platform threads, or asynchronous calls from one thread that waits
 * for a free slot (the way the reference figure is measured).
 */
final class InFlight {
  /** One numbered call. */
  @FunctionalInterface
  interface Operation {
    void run(int index) throws Exception;
  }

  /** One numbered asynchronous call. */
  @FunctionalInterface
  interface AsyncOperation {
    CompletionStage<?> start(int index);
  }

  private InFlight() {}

  /**
   * Starts {@code operation} with 0 to {@code total - 1}, never more than {@code inFlight}
   * unanswered, and waits for the last answer.
   *
   * @return the elapsed time in nanoseconds
   * @throws IllegalStateException when a call failed (the first failure is the cause)
   */
  static long runAsync(int total, int inFlight, AsyncOperation operation) {
    Semaphore slots = new Semaphore(inFlight);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    long start = System.nanoTime();
    try {
      for (int i = 0; i < total && failure.get() == null; i++) {
        slots.acquire();
        operation
            .start(i)
            .whenComplete((value, error) -> {
              if (error != null) {
                failure.compareAndSet(null, error);
              }
              slots.release();
            });
      }
      slots.acquire(inFlight);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted", e);
    }
    long nanos = System.nanoTime() - start;
    if (failure.get() != null) {
      throw new IllegalStateException("A bench call failed: " + failure.get(), failure.get());
    }
    return nanos;
  }

  /**
   * Calls {@code operation} with 0 to {@code total - 1}, {@code callers} at a time, each caller a
   * platform thread blocking in the kernel. (Virtual threads wait on sockets through the JDK's
   * poller and scheduler; measured, the bench's CPU per HTTP publish was 40-49 µs with them and
   * 33-44 µs without, within the noise of this machine.)
   *
   * @return the elapsed time in nanoseconds
   * @throws IllegalStateException when a call failed (the first failure is the cause)
   */
  static long run(int total, int callers, Operation operation) {
    AtomicInteger next = new AtomicInteger();
    long start = System.nanoTime();
    try (ExecutorService threads =
        Executors.newThreadPerTaskExecutor(
            Thread.ofPlatform().daemon().name("bench-caller-", 0).factory())) {
      List<Future<?>> futures = new ArrayList<>(callers);
      for (int c = 0; c < callers; c++) {
        futures.add(
            threads.submit(() -> {
              int i;
              while ((i = next.getAndIncrement()) < total) {
                operation.run(i);
              }
              return null;
            }));
      }
      for (Future<?> future : futures) {
        future.get();
      }
    } catch (ExecutionException e) {
      next.set(total);
      throw new IllegalStateException("A bench call failed: " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted", e);
    }
    return System.nanoTime() - start;
  }
}
