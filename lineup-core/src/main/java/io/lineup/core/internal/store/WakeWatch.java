package io.lineup.core.internal.store;

import io.lettuce.core.KeyValue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One consumer's waits on its queue's wake-up list, one after another, sharing a blocked pop.
 *
 * <p>A wait that runs out (a delayed job falls due) leaves its pop blocked in Redis instead of
 * ending it, and the consumer's next wait goes on with it. A consumer of delayed jobs waits until
 * each one falls due, so ending the pop (a {@code CLIENT UNBLOCK}) and sending a new one for every
 * job cost two round trips to Redis per job, with their wake-ups of threads on both sides. A
 * wake-up token the pop takes while no wait is on (the consumer is leasing, or its slots are full)
 * is put back at once, so no other consumer misses it.
 *
 * <p>Not thread-safe: one consumer's thread calls {@link #await} and {@link #close}. A consumer of
 * several queues, whose keys may lie on several servers, waits with {@link WakeWaiter#await}.
 */
public final class WakeWatch implements AutoCloseable {
  /** Redis ends a pop this long after the wait that sent it would end, in seconds. */
  static final double BACKSTOP_SECONDS = 1.0;

  /**
   * A pop still on its way this long after Redis should have ended it counts as lost (its server
   * went away, and the link may be sending it again to an address that no longer answers): it is
   * ended and a new one sent. Redis ends a timed-out pop within about 100 ms (its {@code hz}).
   */
  static final long LOST_AFTER_NANOS = TimeUnit.SECONDS.toNanos(2);

  private static final int WAITED = 0;
  private static final int PARKED = 1;
  private static final int SETTLED = 2;

  private final WakeWaiter waiter;
  private final byte[] key;
  private Standing standing;

  /** A pop and who settles it: the wait on it, or, once no wait is on, its completion. */
  private final class Standing {
    final WakeWaiter.StandingPop sent;
    final AtomicInteger state = new AtomicInteger(WAITED);
    final long lostAfter;

    Standing(WakeWaiter.StandingPop sent, double serverTimeoutSeconds) {
      this.sent = sent;
      this.lostAfter =
          System.nanoTime() + (long) (serverTimeoutSeconds * 1_000_000_000L) + LOST_AFTER_NANOS;
      sent.pop()
          .whenComplete((token, error) -> {
            if (state.compareAndSet(PARKED, SETTLED)) {
              // Not on the thread that completed the pop, the client's event loop: putting a token
              // back may block there (on a cluster, while the link to the token's node connects,
              // which needs that very loop).
              Thread.ofVirtual().name("lineup-wake-settle").start(this::settleUnwaited);
            }
          });
    }

    /** Leaves the pop to finish on its own: its completion settles it from now on. */
    void park() {
      state.set(PARKED);
      // It may have finished between the wait's timeout and now, its completion finding WAITED.
      if (sent.pop().isDone() && state.compareAndSet(PARKED, SETTLED)) {
        settleUnwaited();
      }
    }

    private void settleUnwaited() {
      CompletableFuture<KeyValue<byte[], byte[]>> done = sent.pop().toCompletableFuture();
      if (done.isCompletedExceptionally()) {
        waiter.finished(sent, false);
        return;
      }
      waiter.putBack(sent, done.getNow(null));
    }
  }

  WakeWatch(WakeWaiter waiter, byte[] key) {
    this.waiter = waiter;
    this.key = key;
  }

  /**
   * Waits until a wake-up token arrives or {@code waitMicros} pass (microseconds).
   *
   * @return true when a token was taken (jobs may be ready), false when the time ran out
   * @throws InterruptedException when the calling thread is interrupted; the pop is ended and a
   *     token it took is put back
   * @throws io.lineup.core.model.RedisUnavailableException when Redis is unreachable
   */
  public boolean await(long waitMicros) throws InterruptedException {
    if (waitMicros <= 0) {
      return false;
    }
    long deadline = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(waitMicros);
    while (true) {
      long remaining = TimeUnit.NANOSECONDS.toMicros(deadline - System.nanoTime());
      if (remaining <= 0) {
        return false;
      }
      Standing wait = standing;
      if (wait != null && System.nanoTime() > wait.lostAfter) {
        close();
        wait = null;
      }
      if (wait == null || !wait.state.compareAndSet(PARKED, WAITED)) {
        // None yet, or the last one finished while no wait was on (its token was put back).
        double serverTimeoutSeconds = remaining / 1_000_000.0 + BACKSTOP_SECONDS;
        WakeWaiter.StandingPop sent = waiter.startPop(key, remaining, serverTimeoutSeconds);
        if (sent == null) {
          standing = null;
          return false;
        }
        wait = new Standing(sent, serverTimeoutSeconds);
        standing = wait;
      }
      KeyValue<byte[], byte[]> token;
      try {
        token = wait.sent.pop().get(remaining, TimeUnit.MICROSECONDS);
      } catch (TimeoutException timedOut) {
        wait.park();
        return false;
      } catch (InterruptedException interrupted) {
        settle(wait);
        waiter.endStanding(wait.sent, key);
        throw interrupted;
      } catch (ExecutionException failed) {
        settle(wait);
        waiter.finished(wait.sent, false);
        throw RedisGateway.translate(failed.getCause());
      }
      settle(wait);
      waiter.finished(wait.sent, true);
      if (token != null && token.hasValue()) {
        return true;
      }
      // Redis ended the pop at its own timeout before this wait's: go on with a new one.
    }
  }

  private void settle(Standing wait) {
    wait.state.set(SETTLED);
    standing = null;
  }

  /** Ends the pop left blocked by the last wait, if any; a token it took is put back. */
  @Override
  public void close() {
    Standing wait = standing;
    standing = null;
    if (wait != null && wait.state.compareAndSet(PARKED, SETTLED)) {
      waiter.endStanding(wait.sent, key);
    }
  }
}
