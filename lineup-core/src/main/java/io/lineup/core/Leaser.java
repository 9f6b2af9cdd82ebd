package io.lineup.core;

import io.lineup.core.internal.Args;
import io.lineup.core.internal.KeySpace;
import io.lineup.core.internal.LeaseNonce;
import io.lineup.core.internal.LeaseWire;
import io.lineup.core.internal.Replies;
import io.lineup.core.internal.ScriptCode;
import io.lineup.core.internal.ScriptLibrary;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Leases, acks, nacks and extends; one script call each (concurrent acks to one queue may share
 * one), a lease wait one blocking call.
 */
final class Leaser {
  /** An ack: carried by a worker's next lease call, or sent by {@link #ack}. */
  record Ack(String id, String token, byte[] result) {}

  /** One lease script call's answer. */
  record Attempt(
      List<LeasedJob> jobs, List<ScriptCode> ackCodes, Leases.Refusal refusal, long waitMs) {}

  private final Engine engine;
  private final CallCoalescer<Ack, ScriptCode> acks;

  Leaser(Engine engine) {
    this.engine = engine;
    this.acks = CallCoalescer.of(engine.options(), this::sendAcks);
  }

  /**
   * One lease script call: settles {@code acks} (all of {@code queue}), then leases up to {@code
   * count}.
   */
  Attempt leaseOnce(QueueName queue, int count, List<Ack> acks) {
    Args args = new Args(5 + acks.size() * 3);
    args.add(engine.now())
        .add(count)
        .add(LeaseNonce.next())
        .add(ThreadLocalRandom.current().nextDouble())
        .add(acks.size());
    addAcks(args, acks);
    List<Object> reply = Replies.asList(engine.run(ScriptLibrary.LEASE, queue, args.toArray()));
    List<ScriptCode> codes = codes(reply.get(0));
    long status = Replies.asLong(reply.get(1));
    long wait = Replies.asLong(reply.get(2));
    List<LeasedJob> jobs = LeaseWire.jobs(queue, reply);
    Leases.Refusal refusal =
        switch ((int) status) {
          case 1 -> Leases.Refusal.PAUSED;
          case 2 -> Leases.Refusal.RATE_LIMITED;
          case 3 -> Leases.Refusal.CONCURRENCY_LIMITED;
          default -> null;
        };
    return new Attempt(jobs, codes, refusal, wait);
  }

  /**
   * Leases from the first of {@code queues} that has jobs, waiting up to {@code wait} for one.
   * Between tries it blocks on the queues' wake-up lists, never longer than until the next due job
   * or the end of a limit window.
   */
  Leases lease(List<QueueName> queues, int count, Duration wait) {
    if (queues == null || queues.isEmpty()) {
      throw new InvalidArgumentException("queue", "at least one queue is needed");
    }
    if (count < 1 || count > Limits.MAX_BATCH) {
      throw new InvalidArgumentException(
          "count", "must be between 1 and " + Limits.MAX_BATCH + ", got " + count);
    }
    Checks.duration("wait", wait, 0, Limits.MAX_WAIT_MS);
    long deadline = System.nanoTime() + (wait == null ? 0 : wait.toNanos());
    byte[][] wakeKeys = new byte[queues.size()][];
    for (int i = 0; i < queues.size(); i++) {
      wakeKeys[i] = KeySpace.queueKeys(queues.get(i))[KeySpace.WAKE_INDEX];
    }
    while (true) {
      long soonest = -1;
      Leases.Refusal refusal = null;
      for (QueueName queue : queues) {
        if (Thread.currentThread().isInterrupted()) {
          // Whoever interrupted no longer wants jobs: take none rather than strand them.
          throw new LineupException("Interrupted before leasing", new InterruptedException());
        }
        Attempt attempt = leaseOnce(queue, count, List.of());
        if (!attempt.jobs().isEmpty()) {
          return new Leases(attempt.jobs(), null, Duration.ZERO);
        }
        if (refusal == null) {
          refusal = attempt.refusal();
        }
        if (attempt.waitMs() >= 0) {
          soonest = soonest < 0 ? attempt.waitMs() : Math.min(soonest, attempt.waitMs());
        }
      }
      long remaining = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      if (remaining <= 0) {
        return new Leases(
            List.of(), refusal, soonest > 0 ? Duration.ofMillis(soonest) : Duration.ZERO);
      }
      long pause = soonest >= 0 ? Math.min(remaining, Math.max(1, soonest)) : remaining;
      try {
        engine.gateway().waiter().await(wakeKeys, pause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LineupException("Interrupted while waiting for a lease", e);
      }
    }
  }

  void ack(QueueName queue, String id, String token, byte[] result) {
    checkSettle(id, token);
    if (result != null && result.length > Limits.MAX_RESULT_BYTES) {
      throw new InvalidArgumentException(
          "result", "must be at most " + Limits.MAX_RESULT_BYTES + " bytes, got " + result.length);
    }
    long bytes = result == null ? 0 : result.length;
    List<ScriptCode> codes =
        engine.gateway().await(acks.submit(queue, List.of(new Ack(id, token, result)), bytes));
    throwUnlessOk(queue, id, codes.get(0));
  }

  /** One ack script call for these acks; never blocks. */
  private CompletableFuture<List<ScriptCode>> sendAcks(QueueName queue, List<Ack> batch) {
    Args args = new Args(2 + batch.size() * 3).add(engine.now()).add(batch.size());
    addAcks(args, batch);
    return engine
        .gateway()
        .runAsync(ScriptLibrary.ACK, KeySpace.queueKeys(queue), args.toArray())
        .thenApply(Leaser::codes);
  }

  private static void addAcks(Args args, List<Ack> acks) {
    for (Ack ack : acks) {
      args.add(ack.id()).add(ack.token()).add(ack.result());
    }
  }

  private static List<ScriptCode> codes(Object reply) {
    List<Object> values = Replies.asList(reply);
    List<ScriptCode> codes = new ArrayList<>(values.size());
    for (Object code : values) {
      codes.add(ScriptCode.of(Replies.asLong(code)));
    }
    return codes;
  }

  NackResult nack(QueueName queue, String id, String token, String error, Duration retryDelay) {
    checkSettle(id, token);
    Checks.duration("retryDelay", retryDelay, 0, Limits.MAX_DELAY_MS);
    String text = error == null ? "" : error;
    if (text.length() > Limits.MAX_ERROR_CHARS) {
      text = text.substring(0, Limits.MAX_ERROR_CHARS);
    }
    Args args =
        new Args(6)
            .add(engine.now())
            .add(id)
            .add(token)
            .add(text)
            .add(retryDelay == null ? -1 : retryDelay.toMillis())
            .add(ThreadLocalRandom.current().nextDouble());
    List<Object> reply = Replies.asList(engine.run(ScriptLibrary.NACK, queue, args.toArray()));
    throwUnlessOk(queue, id, ScriptCode.of(Replies.asLong(reply.get(0))));
    return new NackResult(
        JobState.valueOf(Replies.asString(reply.get(1))),
        Instant.ofEpochMilli(Replies.asLong(reply.get(2))));
  }

  /** Cancels a job in any unfinished state; returns the state it had. */
  JobState cancel(QueueName queue, String id) {
    Checks.id(id);
    List<Object> reply =
        Replies.asList(
            engine.run(
                ScriptLibrary.CANCEL, queue, new Args(2).add(engine.now()).add(id).toArray()));
    ScriptCode code = ScriptCode.of(Replies.asLong(reply.get(0)));
    String before = Replies.asString(reply.get(1));
    return switch (code) {
      case OK -> JobState.valueOf(before);
      case NOT_FOUND -> throw new JobNotFoundException(queue, id);
      default -> throw new JobFinishedException(queue, id, JobState.valueOf(before));
    };
  }

  void release(QueueName queue, String id, String token) {
    checkSettle(id, token);
    Args args = new Args(3).add(engine.now()).add(id).add(token);
    List<Object> reply = Replies.asList(engine.run(ScriptLibrary.RELEASE, queue, args.toArray()));
    throwUnlessOk(queue, id, ScriptCode.of(Replies.asLong(reply.get(0))));
  }

  Instant extend(QueueName queue, String id, String token, Duration timeToRun) {
    checkSettle(id, token);
    Checks.duration("timeToRun", timeToRun, Limits.MIN_TTR_MS, Limits.MAX_TTR_MS);
    Args args =
        new Args(4)
            .add(engine.now())
            .add(id)
            .add(token)
            .add(timeToRun == null ? 0 : timeToRun.toMillis());
    List<Object> reply = Replies.asList(engine.run(ScriptLibrary.EXTEND, queue, args.toArray()));
    throwUnlessOk(queue, id, ScriptCode.of(Replies.asLong(reply.get(0))));
    return Instant.ofEpochMilli(Replies.asLong(reply.get(1)));
  }

  private static void checkSettle(String id, String token) {
    Checks.id(id);
    if (token == null || token.isEmpty() || token.getBytes(StandardCharsets.UTF_8).length > 64) {
      throw new InvalidArgumentException("token", "must be the lease token the lease returned");
    }
  }

  /**
   * Turns a settle code into an exception.
   *
   * @throws JobNotFoundException for an unknown job
   * @throws LeaseLostException when the token no longer holds the job
   */
  static void throwUnlessOk(QueueName queue, String id, ScriptCode code) {
    switch (code) {
      case OK -> {}
      case NOT_FOUND -> throw new JobNotFoundException(queue, id);
      case LEASE_EXPIRED ->
          throw new LeaseLostException(id, LeaseLostException.Reason.EXPIRED_LEASE);
      case LEASE_LOST -> throw new LeaseLostException(id, LeaseLostException.Reason.LEASED_AGAIN);
      case CANCELLED -> throw new LeaseLostException(id, LeaseLostException.Reason.CANCELLED);
      case EXPIRED -> throw new LeaseLostException(id, LeaseLostException.Reason.JOB_EXPIRED);
      case ALREADY_DONE -> throw new LeaseLostException(id, LeaseLostException.Reason.ALREADY_DONE);
      default -> throw new LineupException("Unexpected answer " + code + " for job " + id);
    }
  }
}
