package io.lineup.core;

import io.lineup.consumer.WorkerOptions;
import io.lineup.core.model.LeaseLostException;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.LineupException;
import io.lineup.core.model.QueueName;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Jobs of a queue as a blocking iteration, for code that wants a channel rather than a callback:
 *
 * <pre>{@code
 * try (JobStream stream = lineup.stream(queue, WorkerOptions.defaults())) {
 *   for (LeasedJob job : stream) {
 *     process(job);
 *     stream.ack(job, null);
 *   }
 * }
 * }</pre>
 *
 * <p>Built on a {@link Worker}: at most {@code concurrency} jobs are leased and not yet settled,
 * and their leases are extended until {@link #ack} or {@link #nack}. Iteration ends when the stream
 * is closed. Not for use by several iterating threads at once; settling is thread-safe.
 */
public final class JobStream implements Iterable<LeasedJob>, AutoCloseable {
  private final LinkedBlockingQueue<LeasedJob> delivered = new LinkedBlockingQueue<>();
  private final Map<String, CompletableFuture<byte[]>> unsettled = new ConcurrentHashMap<>();
  private final Worker worker;
  private volatile boolean closed;

  JobStream(Lineup lineup, QueueName queue, WorkerOptions options) {
    this.worker =
        lineup.worker(
            queue,
            job -> {
              CompletableFuture<byte[]> settled = new CompletableFuture<>();
              unsettled.put(job.id(), settled);
              delivered.put(job);
              try {
                return settled.get();
              } catch (java.util.concurrent.ExecutionException failure) {
                if (failure.getCause() instanceof Worker.ReleaseRequest release) {
                  throw release;
                }
                throw (Exception) failure.getCause();
              } finally {
                unsettled.remove(job.id());
              }
            },
            options);
    worker.start();
  }

  /** Acknowledges a job this stream delivered, keeping {@code result} (may be null). */
  public void ack(LeasedJob job, byte[] result) {
    settle(job).complete(result);
  }

  /** Fails a job this stream delivered: retried by the queue's backoff or dead-lettered. */
  public void nack(LeasedJob job, String error) {
    settle(job).completeExceptionally(new LineupException(error));
  }

  private CompletableFuture<byte[]> settle(LeasedJob job) {
    CompletableFuture<byte[]> settled = unsettled.get(job.id());
    if (settled == null) {
      throw new LeaseLostException(job.id(), LeaseLostException.Reason.ACKED);
    }
    return settled;
  }

  /** Blocks until a job arrives; null when the stream closed. */
  private LeasedJob take() {
    while (!closed) {
      try {
        LeasedJob job = delivered.poll(100, TimeUnit.MILLISECONDS);
        if (job != null) {
          return job;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return null;
      }
    }
    return null;
  }

  @Override
  public Iterator<LeasedJob> iterator() {
    return new Iterator<>() {
      private LeasedJob next;

      @Override
      public boolean hasNext() {
        if (next == null) {
          next = take();
        }
        return next != null;
      }

      @Override
      public LeasedJob next() {
        if (!hasNext()) {
          throw new NoSuchElementException("stream closed");
        }
        LeasedJob job = next;
        next = null;
        return job;
      }
    };
  }

  /** Stops leasing; jobs delivered but not settled are released back to their place in line. */
  @Override
  public void close() {
    closed = true;
    unsettled
        .values()
        .forEach(settled -> settled.completeExceptionally(new Worker.ReleaseRequest()));
    worker.close();
  }
}
