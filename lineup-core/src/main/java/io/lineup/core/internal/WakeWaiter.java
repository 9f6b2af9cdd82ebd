package io.lineup.core.internal;

import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.UnblockType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lineup.core.RedisUnavailableException;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Blocks a consumer on its queues' wake-up lists (BLPOP) without sleep-polling.
 *
 * <p>Redis checks blocking timeouts only about every 100 ms on an idle server (its {@code hz}), far
 * too coarse for jobs due at a given millisecond. So the wait is ended here: when the local timer
 * runs out, the blocked connection is released with {@code CLIENT UNBLOCK}. Lateness is then a
 * couple of round trips, whatever the server's {@code hz}.
 *
 * <p>Each waiter holds a dedicated connection while it waits; connections are pooled.
 */
public final class WakeWaiter implements AutoCloseable {
  private final RedisClient client;
  private final StatefulRedisConnection<byte[], byte[]> control;
  private final Duration commandTimeout;
  private final Semaphore permits;
  private final ConcurrentLinkedDeque<Link> idle = new ConcurrentLinkedDeque<>();
  private volatile boolean closed;

  private static final class Link {
    final StatefulRedisConnection<byte[], byte[]> connection;
    final long clientId;
    volatile boolean stale;

    Link(StatefulRedisConnection<byte[], byte[]> connection, long clientId) {
      this.connection = connection;
      this.clientId = clientId;
    }
  }

  WakeWaiter(
      RedisClient client,
      StatefulRedisConnection<byte[], byte[]> control,
      Duration commandTimeout,
      int maxConnections) {
    this.client = client;
    this.control = control;
    this.commandTimeout = commandTimeout;
    this.permits = new Semaphore(maxConnections);
  }

  /**
   * Waits until a wake-up token arrives on one of {@code wakeKeys} or {@code waitMillis} pass.
   *
   * @return true when a token was taken (jobs may be ready), false when the time ran out
   * @throws InterruptedException when the calling thread is interrupted; a token taken meanwhile is
   *     put back so no other consumer misses it
   * @throws RedisUnavailableException when Redis is unreachable
   */
  public boolean await(byte[][] wakeKeys, long waitMillis) throws InterruptedException {
    if (waitMillis <= 0 || closed) {
      return false;
    }
    long start = System.nanoTime();
    if (!permits.tryAcquire(waitMillis, TimeUnit.MILLISECONDS)) {
      return false;
    }
    Link link = null;
    boolean healthy = false;
    try {
      link = borrow();
      long remaining = waitMillis - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      if (remaining <= 0) {
        healthy = true;
        return false;
      }
      // The server-side timeout is only a backstop: the local timer below ends the wait on time.
      double serverTimeoutSeconds = remaining / 1000.0 + 1.0;
      RedisFuture<KeyValue<byte[], byte[]>> pop =
          link.connection.async().blpop(serverTimeoutSeconds, wakeKeys);
      KeyValue<byte[], byte[]> token;
      try {
        token = pop.get(remaining, TimeUnit.MILLISECONDS);
      } catch (TimeoutException timedOut) {
        token = unblock(link, pop);
      } catch (InterruptedException interrupted) {
        KeyValue<byte[], byte[]> taken = unblock(link, pop);
        if (taken != null && taken.hasValue()) {
          control.async().rpush(taken.getKey(), taken.getValue());
        }
        healthy = true;
        throw interrupted;
      }
      healthy = true;
      return token != null && token.hasValue();
    } catch (ExecutionException e) {
      throw RedisGateway.translate(e.getCause());
    } finally {
      if (link != null) {
        release(link, healthy);
      }
      permits.release();
    }
  }

  private KeyValue<byte[], byte[]> unblock(Link link, RedisFuture<KeyValue<byte[], byte[]>> pop)
      throws ExecutionException {
    try {
      Long unblocked =
          control
              .async()
              .clientUnblock(link.clientId, UnblockType.TIMEOUT)
              .get(commandTimeout.toMillis(), TimeUnit.MILLISECONDS);
      if (unblocked == null || unblocked == 0) {
        // The link reconnected under a new client id (or the pop just finished): retire it after
        // this wait.
        link.stale = true;
      }
      return pop.get(commandTimeout.toMillis() + 2000, TimeUnit.MILLISECONDS);
    } catch (InterruptedException | TimeoutException e) {
      throw new ExecutionException(
          new RedisUnavailableException("Could not end a blocking wait", e));
    }
  }

  private Link borrow() {
    Link link = idle.pollFirst();
    if (link != null && link.connection.isOpen()) {
      return link;
    }
    if (link != null) {
      link.connection.closeAsync();
    }
    try {
      StatefulRedisConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE);
      Long id = connection.sync().clientId();
      return new Link(connection, id);
    } catch (RuntimeException e) {
      throw RedisGateway.translate(e);
    }
  }

  private void release(Link link, boolean healthy) {
    if (healthy && !link.stale && !closed && link.connection.isOpen()) {
      idle.offerFirst(link);
    } else {
      link.connection.closeAsync();
    }
  }

  @Override
  public void close() {
    closed = true;
    Link link;
    while ((link = idle.pollFirst()) != null) {
      link.connection.close();
    }
  }
}
