package io.lineup.core;

import io.lineup.consumer.Failure;
import io.lineup.consumer.IdleWait;
import io.lineup.consumer.LeaseCall;
import io.lineup.consumer.LeaseSource;
import io.lineup.consumer.RetryLaterException;
import io.lineup.consumer.observation.ProcessContext;
import io.lineup.core.internal.store.LeaseNonce;
import io.lineup.core.internal.store.PendingLease;
import io.lineup.core.internal.store.RedisStore;
import io.lineup.core.internal.store.RedisStore.Ack;
import io.lineup.core.internal.store.ScriptCode;
import io.lineup.core.internal.store.ScriptReplies.LeaseReply;
import io.lineup.core.internal.store.WakeWatch;
import io.lineup.core.model.JobNotFoundException;
import io.lineup.core.model.LeaseLostException;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.Limits;
import io.lineup.core.model.QueueName;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's side of a {@link Worker}'s consumer loop: leases from one queue with the lease
 * script, which also carries the acks of finished jobs (so a busy worker costs one script call per
 * batch rather than two per job), and waits on the queue's wake-up list when it is empty.
 */
final class StoreLeaseSource implements LeaseSource<LeasedJob> {
  private static final Logger LOG = LoggerFactory.getLogger(StoreLeaseSource.class);

  private final Leaser leaser;
  private final RedisStore store;
  private final QueueName queue;
  private final Duration idleWait;

  /**
   * This worker's name in its queue's due watch (lease.lua): random, so that it is unique among the
   * queue's consumers in every process.
   */
  private final String name = "w" + LeaseNonce.next();

  private final ConcurrentLinkedQueue<Ack> pendingAcks = new ConcurrentLinkedQueue<>();

  StoreLeaseSource(Leaser leaser, RedisStore store, QueueName queue, Duration idleWait) {
    this.leaser = leaser;
    this.store = store;
    this.queue = queue;
    this.idleWait = idleWait;
  }

  @Override
  public LeaseCall<LeasedJob> lease(int count) {
    List<Ack> acks = drainAcks();
    if (count <= 0 && acks.isEmpty()) {
      return null;
    }
    try {
      return new Call(leaser.sendLease(queue, count, acks, name));
    } catch (RuntimeException e) {
      pendingAcks.addAll(acks);
      throw e;
    }
  }

  /** A lease call sent to Redis: its acks' refusals are logged, and kept to retry if it fails. */
  private final class Call implements LeaseCall<LeasedJob> {
    private final PendingLease sent;

    Call(PendingLease sent) {
      this.sent = sent;
    }

    @Override
    public int count() {
      return sent.count();
    }

    @Override
    public boolean isDone() {
      return sent.isDone();
    }

    @Override
    public void whenDone(Runnable action) {
      sent.whenDone(action);
    }

    @Override
    public io.lineup.consumer.LeaseReply<LeasedJob> await() {
      LeaseReply reply;
      try {
        reply = sent.await();
      } catch (RuntimeException e) {
        pendingAcks.addAll(sent.acks());
        throw e;
      }
      report(sent.acks(), reply.ackCodes());
      Duration advice =
          reply.waitMicros() >= 0 ? Duration.of(reply.waitMicros(), ChronoUnit.MICROS) : null;
      return new io.lineup.consumer.LeaseReply<>(reply.jobs(), advice);
    }
  }

  @Override
  public IdleWait openIdleWait() {
    WakeWatch watch = store.watchWake(queue);
    return new IdleWait() {
      @Override
      public void await(Duration advice) throws InterruptedException {
        long wait = TimeUnit.MICROSECONDS.convert(idleWait);
        if (advice != null) {
          wait = Math.min(wait, Math.max(1, TimeUnit.MICROSECONDS.convert(advice)));
        }
        // A job that finished before the loop began idling left its ack for us: send it first.
        if (!pendingAcks.isEmpty()) {
          return;
        }
        watch.await(wait);
      }

      @Override
      public void close() {
        watch.close();
      }
    };
  }

  @Override
  public String id(LeasedJob job) {
    return job.id();
  }

  @Override
  public Duration leaseLeft(LeasedJob job) {
    return timeToRun(job);
  }

  /** The job's time to run, both ends in Redis time, so that clocks apart do not matter. */
  private static Duration timeToRun(LeasedJob job) {
    return Duration.ofMillis(
        Math.max(1, job.leaseDeadline().toEpochMilli() - job.leasedAt().toEpochMilli()));
  }

  @Override
  public Duration extend(LeasedJob job) {
    Duration ttr = timeToRun(job);
    leaser.extend(queue, job.id(), job.token(), ttr);
    return ttr;
  }

  /** Queued for the next lease call, or for {@link #flush} while the loop idles or stops. */
  @Override
  public void ack(LeasedJob job, byte[] result) {
    pendingAcks.add(new Ack(job.id(), job.token(), result));
  }

  @Override
  public void fail(LeasedJob job, Throwable error) {
    if (error instanceof Worker.ReleaseRequest || error instanceof ReleaseJobException) {
      giveBack(job);
    } else {
      Duration delay = error instanceof RetryLaterException later ? later.delay() : null;
      leaser.nack(queue, job.id(), job.token(), String.valueOf(error), delay);
    }
  }

  /** Releases the job: back to its place in line, its attempt not counted. */
  @Override
  public void giveBack(LeasedJob job) {
    leaser.release(queue, job.id(), job.token());
  }

  /**
   * Sends the waiting acks in one call; on failure they stay for the next lease call.
   *
   * @param stopping also when there are none, naming this worker, so that it gives up the queue's
   *     due watch if it holds it (a call asking for no jobs does) and another consumer takes it now
   *     rather than when the watch is overdue
   */
  @Override
  public void flush(boolean stopping) {
    List<Ack> acks = drainAcks();
    if (acks.isEmpty() && !stopping) {
      return;
    }
    try {
      report(acks, leaser.sendLease(queue, 0, acks, stopping ? name : null).await().ackCodes());
    } catch (RuntimeException e) {
      pendingAcks.addAll(acks);
      LOG.debug("Ack of {} jobs failed, will retry: {}", acks.size(), e.getMessage());
    }
  }

  @Override
  public ProcessContext processContext(LeasedJob job) {
    return new ProcessContext(
        TraceFields.of(job.trace()), queue.namespace(), queue.name(), job.id(), job.attempt());
  }

  @Override
  public Failure classify(RuntimeException error) {
    if (error instanceof LeaseLostException || error instanceof JobNotFoundException) {
      return Failure.LOST;
    }
    // Redis unreachable or busy, or a script error: worth a few more tries.
    return Failure.UNAVAILABLE;
  }

  private void report(List<Ack> acks, List<ScriptCode> codes) {
    for (int i = 0; i < codes.size(); i++) {
      if (codes.get(i) != ScriptCode.OK) {
        LOG.warn("Ack of job {} in {} was refused: {}", acks.get(i).id(), queue, codes.get(i));
      }
    }
  }

  private List<Ack> drainAcks() {
    List<Ack> acks = new ArrayList<>();
    Ack ack;
    while (acks.size() < Limits.MAX_BATCH && (ack = pendingAcks.poll()) != null) {
      acks.add(ack);
    }
    return acks;
  }
}
