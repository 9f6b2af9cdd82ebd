package io.lineup.consumer;

import io.lineup.consumer.observation.ProcessContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A lease source in memory (not a queue store): hands out the jobs put in it and records every
 * settlement, so that the tests read what the loop decided.
 */
final class FakeSource implements LeaseSource<FakeSource.Job> {
  /** A job: its id and its time to run. */
  record Job(String id, Duration timeToRun) {}

  /** The lease is gone. */
  static final class Lost extends RuntimeException {
    Lost() {
      super("lost");
    }
  }

  /** The store did not answer. */
  static final class Down extends RuntimeException {
    Down() {
      super("down");
    }
  }

  final Deque<Job> ready = new ConcurrentLinkedDeque<>();
  final Map<String, byte[]> acked = new ConcurrentHashMap<>();
  final Map<String, Throwable> failed = new ConcurrentHashMap<>();
  final List<String> givenBack = new CopyOnWriteArrayList<>();
  final List<Integer> asked = new CopyOnWriteArrayList<>();
  final List<String> extended = new CopyOnWriteArrayList<>();
  final AtomicInteger leaseFailuresLeft = new AtomicInteger();
  final AtomicInteger ackFailuresLeft = new AtomicInteger();
  final AtomicInteger contextsMade = new AtomicInteger();
  volatile Function<Job, RuntimeException> extendFailure = job -> null;

  /** Empty answers with advice to wait still to give. */
  final AtomicInteger advicesLeft = new AtomicInteger();

  /** Answer lease calls on another thread, later (as the engine's store does). */
  volatile boolean async;

  final AtomicInteger outstanding = new AtomicInteger();
  final AtomicInteger mostOutstanding = new AtomicInteger();
  final List<Duration> advicesSeen = new CopyOnWriteArrayList<>();

  FakeSource add(String... ids) {
    for (String id : ids) {
      ready.add(new Job(id, Duration.ofMinutes(1)));
    }
    return this;
  }

  @Override
  public LeaseCall<Job> lease(int count) {
    if (count == 0) {
      return null;
    }
    asked.add(count);
    if (leaseFailuresLeft.getAndDecrement() > 0) {
      throw new Down();
    }
    if (advicesLeft.getAndDecrement() > 0) {
      return LeaseCall.answered(count, new LeaseReply<>(List.of(), Duration.ofMillis(1)));
    }
    List<Job> jobs = new ArrayList<>();
    Job job;
    while (jobs.size() < count && (job = ready.poll()) != null) {
      jobs.add(job);
    }
    if (!async) {
      return LeaseCall.answered(count, LeaseReply.of(jobs));
    }
    mostOutstanding.accumulateAndGet(outstanding.incrementAndGet(), Math::max);
    CompletableFuture<LeaseReply<Job>> reply = new CompletableFuture<>();
    Thread.ofVirtual()
        .start(() -> {
          Thread.yield();
          outstanding.decrementAndGet();
          reply.complete(LeaseReply.of(jobs));
        });
    return new LeaseCall<>() {
      @Override
      public int count() {
        return count;
      }

      @Override
      public boolean isDone() {
        return reply.isDone();
      }

      @Override
      public void whenDone(Runnable action) {
        reply.whenComplete((value, error) -> action.run());
      }

      @Override
      public LeaseReply<Job> await() {
        return reply.join();
      }
    };
  }

  @Override
  public IdleWait openIdleWait() {
    return advice -> {
      if (advice != null) {
        advicesSeen.add(advice);
      }
      Thread.sleep(5);
    };
  }

  @Override
  public String id(Job job) {
    return job.id();
  }

  @Override
  public Duration leaseLeft(Job job) {
    return job.timeToRun();
  }

  @Override
  public Duration extend(Job job) {
    extended.add(job.id());
    RuntimeException failure = extendFailure.apply(job);
    if (failure != null) {
      throw failure;
    }
    return job.timeToRun();
  }

  @Override
  public void ack(Job job, byte[] result) {
    if (ackFailuresLeft.getAndDecrement() > 0) {
      throw new Down();
    }
    acked.put(job.id(), result == null ? new byte[0] : result);
  }

  @Override
  public void fail(Job job, Throwable error) {
    failed.put(job.id(), error);
  }

  @Override
  public void giveBack(Job job) {
    givenBack.add(job.id());
  }

  /** Every job as in queue {@code ns/q}, its first delivery, without a trace context. */
  @Override
  public ProcessContext processContext(Job job) {
    contextsMade.incrementAndGet();
    return new ProcessContext(Map.of(), "ns", "q", job.id(), 1);
  }

  @Override
  public Failure classify(RuntimeException error) {
    if (error instanceof Lost) {
      return Failure.LOST;
    }
    if (error instanceof Down) {
      return Failure.UNAVAILABLE;
    }
    return Failure.REFUSED;
  }
}
