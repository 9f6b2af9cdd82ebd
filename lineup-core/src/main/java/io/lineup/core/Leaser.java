package io.lineup.core;

import io.lineup.core.internal.store.PendingLease;
import io.lineup.core.internal.store.RedisStore;
import io.lineup.core.internal.store.RedisStore.Ack;
import io.lineup.core.internal.store.ScriptCode;
import io.lineup.core.internal.store.ScriptFailures;
import io.lineup.core.internal.store.ScriptReplies.CancelReply;
import io.lineup.core.internal.store.ScriptReplies.ExtendReply;
import io.lineup.core.internal.store.ScriptReplies.LeaseReply;
import io.lineup.core.internal.store.ScriptReplies.NackReply;
import io.lineup.core.model.AckOutcome;
import io.lineup.core.model.AckRequest;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.JobFinishedException;
import io.lineup.core.model.JobNotFoundException;
import io.lineup.core.model.JobState;
import io.lineup.core.model.LeaseLostException;
import io.lineup.core.model.Leases;
import io.lineup.core.model.Limits;
import io.lineup.core.model.LineupException;
import io.lineup.core.model.NackResult;
import io.lineup.core.model.PayloadTooLargeException;
import io.lineup.core.model.QueueName;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Leases, acks, nacks and extends; one script call each (concurrent acks to one queue may share
 * one), a lease wait one blocking call.
 */
final class Leaser {
  private final RedisStore store;
  private final CallCoalescer<QueueName, Ack, ScriptCode> acks;

  Leaser(Engine engine) {
    this.store = engine.store();
    this.acks = CallCoalescer.of(engine.options(), store::ack);
  }

  /**
   * One lease script call: settles {@code acks} (all of {@code queue}), then leases up to {@code
   * count}.
   */
  LeaseReply leaseOnce(QueueName queue, int count, List<Ack> acks) {
    return store.lease(queue, count, acks);
  }

  /**
   * {@link #leaseOnce} sent without waiting; its reply is read by {@link PendingLease#await()}.
   *
   * @param consumer the calling consumer's name for the queue's due watch ({@link
   *     RedisStore#sendLease}); null for none
   */
  PendingLease sendLease(QueueName queue, int count, List<Ack> acks, String consumer) {
    return store.sendLease(queue, count, acks, consumer);
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
    checkLease(count, wait);
    return leaseUntil(queues, count, deadlineAfter(wait), null);
  }

  /**
   * The loop of {@link #lease}: tries the queues in order, and between rounds blocks on their
   * wake-up lists until {@code deadline} ({@link System#nanoTime()}).
   *
   * @param first the reply of a lease call already made on the first queue, which stands for its
   *     first try; null when none was made
   */
  private Leases leaseUntil(List<QueueName> queues, int count, long deadline, LeaseReply first) {
    LeaseReply made = first;
    while (true) {
      long soonest = -1;
      Leases.Refusal refusal = null;
      for (QueueName queue : queues) {
        if (Thread.currentThread().isInterrupted()) {
          // Whoever interrupted no longer wants jobs: take none rather than strand them.
          throw new LineupException("Interrupted before leasing", new InterruptedException());
        }
        LeaseReply attempt = made != null ? made : leaseOnce(queue, count, List.of());
        made = null;
        if (!attempt.jobs().isEmpty()) {
          return new Leases(attempt.jobs(), null, Duration.ZERO);
        }
        if (refusal == null) {
          refusal = attempt.refusal();
        }
        if (attempt.waitMicros() >= 0) {
          soonest = soonest < 0 ? attempt.waitMicros() : Math.min(soonest, attempt.waitMicros());
        }
      }
      long remaining = TimeUnit.NANOSECONDS.toMicros(deadline - System.nanoTime());
      if (remaining <= 0) {
        return new Leases(
            List.of(),
            refusal,
            soonest > 0 ? Duration.of(soonest, ChronoUnit.MICROS) : Duration.ZERO);
      }
      long pause = soonest >= 0 ? Math.min(remaining, Math.max(1, soonest)) : remaining;
      try {
        store.awaitWake(queues, pause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LineupException("Interrupted while waiting for a lease", e);
      }
    }
  }

  void ack(QueueName queue, String id, String token, byte[] result) {
    checkSettle(id, token);
    if (result != null && result.length > Limits.MAX_RESULT_BYTES) {
      throw new PayloadTooLargeException("result", Limits.MAX_RESULT_BYTES, result.length);
    }
    long bytes = result == null ? 0 : result.length;
    List<ScriptCode> codes =
        store.await(acks.submit(queue, List.of(new Ack(id, token, result)), bytes));
    throwUnlessOk(queue, id, codes.get(0));
  }

  List<AckOutcome> ackAll(QueueName queue, List<AckRequest> requests) {
    List<Ack> batch = checkedAcks(requests);
    if (batch.isEmpty()) {
      return List.of();
    }
    long bytes = 0;
    for (Ack ack : batch) {
      bytes += ack.result() == null ? 0 : ack.result().length;
    }
    return outcomes(queue, requests, store.await(acks.submit(queue, batch, bytes)));
  }

  /**
   * Settles the acks in the script call that leases from the queue, then, when that call gave no
   * job and {@code wait} allows, waits for jobs as {@link #lease} does (that call standing for its
   * first try).
   */
  AcksThenLeases ackThenLease(
      QueueName queue, List<AckRequest> requests, int count, Duration wait) {
    checkLease(count, wait);
    List<Ack> batch = checkedAcks(requests);
    long deadline = deadlineAfter(wait);
    LeaseReply first = leaseOnce(queue, count, batch);
    return new AcksThenLeases(
        outcomes(queue, requests, first.ackCodes()),
        leaseUntil(List.of(queue), count, deadline, first));
  }

  private static long deadlineAfter(Duration wait) {
    return System.nanoTime() + (wait == null ? 0 : wait.toNanos());
  }

  /** The acks as the scripts take them, after the checks {@link Lineup#ackAll} documents. */
  private static List<Ack> checkedAcks(List<AckRequest> requests) {
    if (requests.size() > Limits.MAX_BATCH) {
      throw new InvalidArgumentException(
          "acks", "at most " + Limits.MAX_BATCH + " acks per call, got " + requests.size());
    }
    List<Ack> batch = new ArrayList<>(requests.size());
    for (AckRequest request : requests) {
      checkSettle(request.id(), request.token());
      byte[] result = request.result();
      if (result != null && result.length > Limits.MAX_RESULT_BYTES) {
        throw new PayloadTooLargeException("result", Limits.MAX_RESULT_BYTES, result.length);
      }
      batch.add(new Ack(request.id(), request.token(), result));
    }
    return batch;
  }

  private static List<AckOutcome> outcomes(
      QueueName queue, List<AckRequest> requests, List<ScriptCode> codes) {
    List<AckOutcome> outcomes = new ArrayList<>(codes.size());
    for (int i = 0; i < codes.size(); i++) {
      String id = requests.get(i).id();
      outcomes.add(new AckOutcome(id, ScriptFailures.ofSettle(codes.get(i), queue, id)));
    }
    return outcomes;
  }

  NackResult nack(QueueName queue, String id, String token, String error, Duration retryDelay) {
    checkSettle(id, token);
    Checks.duration("retryDelay", retryDelay, 0, Limits.MAX_DELAY_MS);
    String text = error == null ? "" : error;
    if (text.length() > Limits.MAX_ERROR_CHARS) {
      text = text.substring(0, Limits.MAX_ERROR_CHARS);
    }
    NackReply reply = store.nack(queue, id, token, text, retryDelay);
    throwUnlessOk(queue, id, reply.code());
    return new NackResult(reply.state(), reply.dueAt());
  }

  /** Cancels a job in any unfinished state; returns the state it had. */
  JobState cancel(QueueName queue, String id) {
    Checks.id(id);
    CancelReply reply = store.cancel(queue, id);
    return switch (reply.code()) {
      case OK -> reply.before();
      case NOT_FOUND -> throw new JobNotFoundException(queue, id);
      default -> throw new JobFinishedException(queue, id, reply.before());
    };
  }

  void release(QueueName queue, String id, String token) {
    checkSettle(id, token);
    throwUnlessOk(queue, id, store.release(queue, id, token));
  }

  Instant extend(QueueName queue, String id, String token, Duration timeToRun) {
    checkSettle(id, token);
    Checks.duration("timeToRun", timeToRun, Limits.MIN_TTR_MS, Limits.MAX_TTR_MS);
    ExtendReply reply = store.extend(queue, id, token, timeToRun);
    throwUnlessOk(queue, id, reply.code());
    return reply.leaseDeadline();
  }

  private static void checkLease(int count, Duration wait) {
    if (count < 1 || count > Limits.MAX_BATCH) {
      throw new InvalidArgumentException(
          "count", "must be between 1 and " + Limits.MAX_BATCH + ", got " + count);
    }
    Checks.duration("wait", wait, 0, Limits.MAX_WAIT_MS);
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
    LineupException failure = ScriptFailures.ofSettle(code, queue, id);
    if (failure != null) {
      throw failure;
    }
  }
}
