package io.lineup.core.internal.store;

import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.UnblockType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lineup.core.model.RedisUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
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
 * runs out, the caller goes on at once and the blocked connection is released with {@code CLIENT
 * UNBLOCK} meanwhile. Lateness is then the caller's own round trip, whatever the server's {@code
 * hz}.
 *
 * <p>Each wait holds a dedicated connection to the server of its keys; connections are pooled per
 * server. On a Redis Cluster, keys of different nodes are waited on side by side, and the first
 * wake-up ends the others.
 */
public final class WakeWaiter implements AutoCloseable {
  /** Pause before asking again to end a wait whose pop was not blocked yet. */
  static final long UNBLOCK_RETRY_MILLIS = 1;

  private final BlockingLinks links;
  private final Duration commandTimeout;
  private final Semaphore permits;
  private final Map<String, ConcurrentLinkedDeque<Link>> idle = new ConcurrentHashMap<>();
  private volatile boolean closed;

  static final class Link {
    final StatefulRedisConnection<byte[], byte[]> connection;
    final long clientId;
    final String server;
    volatile boolean stale;

    Link(StatefulRedisConnection<byte[], byte[]> connection, long clientId, String server) {
      this.connection = connection;
      this.clientId = clientId;
      this.server = server;
    }
  }

  WakeWaiter(BlockingLinks links, Duration commandTimeout, int maxConnections) {
    this.links = links;
    this.commandTimeout = commandTimeout;
    this.permits = new Semaphore(maxConnections);
  }

  /**
   * Waits until a wake-up token arrives on one of {@code wakeKeys} or {@code waitMicros} pass
   * (microseconds, so that a wait for a job due at a given ms ends on it, not up to a ms after).
   *
   * @return true when a token was taken (jobs may be ready), false when the time ran out
   * @throws InterruptedException when the calling thread is interrupted; a token taken meanwhile is
   *     put back so no other consumer misses it
   * @throws RedisUnavailableException when Redis is unreachable
   */
  public boolean await(byte[][] wakeKeys, long waitMicros) throws InterruptedException {
    if (waitMicros <= 0 || closed) {
      return false;
    }
    Map<String, List<byte[]>> byServer = new LinkedHashMap<>();
    for (byte[] key : wakeKeys) {
      byServer.computeIfAbsent(links.serverOf(key), server -> new ArrayList<>()).add(key);
    }
    if (byServer.size() == 1) {
      return awaitOnOneServer(wakeKeys, waitMicros, null);
    }
    return awaitOnSeveralServers(byServer, waitMicros);
  }

  /** One wait per server on virtual threads; the first token (or the timer) ends them all. */
  private boolean awaitOnSeveralServers(Map<String, List<byte[]>> byServer, long waitMicros)
      throws InterruptedException {
    CompletableFuture<Boolean> woken = new CompletableFuture<>();
    List<Thread> waits = new ArrayList<>();
    for (List<byte[]> keys : byServer.values()) {
      waits.add(
          Thread.ofVirtual()
              .start(() -> {
                try {
                  if (awaitOnOneServer(keys.toArray(new byte[0][]), waitMicros, woken)) {
                    woken.complete(true);
                  }
                } catch (InterruptedException ended) {
                  // Another server's wait won.
                } catch (RuntimeException e) {
                  woken.completeExceptionally(e);
                }
              }));
    }
    try {
      return woken.get(waitMicros, TimeUnit.MICROSECONDS);
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      throw RedisGateway.translate(e.getCause());
    } finally {
      woken.complete(false);
      waits.forEach(Thread::interrupt);
    }
  }

  private boolean awaitOnOneServer(
      byte[][] keys, long waitMicros, CompletableFuture<Boolean> endedBy)
      throws InterruptedException {
    long start = System.nanoTime();
    if (!permits.tryAcquire(waitMicros, TimeUnit.MICROSECONDS)) {
      return false;
    }
    Link link = null;
    boolean healthy = false;
    boolean handedOver = false;
    try {
      link = borrow(keys[0]);
      long remaining = waitMicros - TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - start);
      if (remaining <= 0 || (endedBy != null && endedBy.isDone())) {
        healthy = true;
        return false;
      }
      // The server-side timeout is only a backstop: the local timer below ends the wait on time.
      double serverTimeoutSeconds = remaining / 1_000_000.0 + 1.0;
      RedisFuture<KeyValue<byte[], byte[]>> pop =
          link.connection.async().blpop(serverTimeoutSeconds, keys);
      KeyValue<byte[], byte[]> token;
      try {
        token = pop.get(remaining, TimeUnit.MICROSECONDS);
      } catch (TimeoutException timedOut) {
        // The wait is over and the caller leases at once: ending the blocked pop, and taking its
        // link and permit back, goes on meanwhile, so neither its round trip nor a retry (when the
        // pop had not reached Redis yet) delays the lease.
        endInBackground(link, pop, keys[0]);
        handedOver = true;
        return false;
      } catch (InterruptedException interrupted) {
        endPop(link, pop, keys[0]);
        healthy = true;
        throw interrupted;
      }
      healthy = true;
      return token != null && token.hasValue();
    } catch (ExecutionException e) {
      throw RedisGateway.translate(e.getCause());
    } finally {
      if (!handedOver) {
        if (link != null) {
          release(link, healthy);
        }
        permits.release();
      }
    }
  }

  /**
   * {@link #endPop} on a virtual thread, for a pop whose wait ran out, then releases its link and
   * permit.
   */
  private void endInBackground(Link link, RedisFuture<KeyValue<byte[], byte[]>> pop, byte[] key) {
    Thread.ofVirtual()
        .name("lineup-wait-end")
        .start(() -> {
          boolean healthy = false;
          try {
            endPop(link, pop, key);
            healthy = true;
          } catch (ExecutionException | RuntimeException e) {
            // The link is closed below; the next wait takes another.
          } finally {
            release(link, healthy);
            permits.release();
          }
        });
  }

  /**
   * Ends a pop no one waits for any more. A wake-up token it took meanwhile is put back, so no
   * other consumer misses it (another wait may have started since, and this pop, blocked longer,
   * was served first).
   */
  private void endPop(Link link, RedisFuture<KeyValue<byte[], byte[]>> pop, byte[] key)
      throws ExecutionException {
    putBackToken(unblock(link, pop, key));
  }

  /** Puts a wake-up token a pop took back on its list (nothing when the pop took none). */
  private void putBackToken(KeyValue<byte[], byte[]> taken) {
    if (taken != null && taken.hasValue()) {
      links.control(taken.getKey()).rpush(taken.getKey(), taken.getValue());
    }
  }

  private KeyValue<byte[], byte[]> unblock(
      Link link, RedisFuture<KeyValue<byte[], byte[]>> pop, byte[] key) throws ExecutionException {
    long deadline = System.nanoTime() + commandTimeout.toNanos();
    try {
      while (true) {
        Long unblocked =
            links
                .control(key)
                .clientUnblock(link.clientId, UnblockType.TIMEOUT)
                .get(commandTimeout.toMillis(), TimeUnit.MILLISECONDS);
        if (unblocked != null && unblocked > 0) {
          return pop.get(commandTimeout.toMillis() + 2000, TimeUnit.MILLISECONDS);
        }
        // Not blocked: the pop just finished, or it has not reached Redis yet (the timer can beat
        // it on a busy machine), or the link reconnected under a new client id. Only a retry ends
        // the second case on time; without it the pop would block until its backstop timeout or
        // the next wake-up (measured: stalls of ~300 ms).
        try {
          return pop.get(UNBLOCK_RETRY_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException notYet) {
          if (System.nanoTime() > deadline) {
            link.stale = true;
            throw notYet;
          }
        }
      }
    } catch (InterruptedException | TimeoutException e) {
      link.stale = true;
      throw new ExecutionException(
          new RedisUnavailableException("Could not end a blocking wait", e));
    }
  }

  /**
   * Sends a pop on {@code key} on a link of its own, holding a permit: the pop blocks in Redis for
   * at most {@code serverTimeoutSeconds}. Null when no permit came within {@code waitMicros} or the
   * waiter is closed.
   *
   * @throws RedisUnavailableException when no link could be made
   */
  StandingPop startPop(byte[] key, long waitMicros, double serverTimeoutSeconds)
      throws InterruptedException {
    if (closed || !permits.tryAcquire(waitMicros, TimeUnit.MICROSECONDS)) {
      return null;
    }
    try {
      Link link = borrow(key);
      return new StandingPop(link, link.connection.async().blpop(serverTimeoutSeconds, key));
    } catch (RuntimeException e) {
      permits.release();
      throw e;
    }
  }

  /** A pop sent by {@link #startPop}, and its link. */
  record StandingPop(Link link, RedisFuture<KeyValue<byte[], byte[]>> pop) {}

  /** Gives back the link and permit of a pop that has finished. */
  void finished(StandingPop standing, boolean healthy) {
    release(standing.link(), healthy);
    permits.release();
  }

  /**
   * Puts back a wake-up token that a pop nobody waited for took, so no other consumer misses it,
   * then gives back the link and permit.
   */
  void putBack(StandingPop standing, KeyValue<byte[], byte[]> token) {
    putBackToken(token);
    finished(standing, true);
  }

  /** Ends a pop still blocked in Redis, in the background, then gives back its link and permit. */
  void endStanding(StandingPop standing, byte[] key) {
    endInBackground(standing.link(), standing.pop(), key);
  }

  /** How many links wait idle in the pools, for tests: a wait on one needs no new connection. */
  int idleLinks() {
    return idle.values().stream().mapToInt(ConcurrentLinkedDeque::size).sum();
  }

  private Link borrow(byte[] key) {
    String server = links.serverOf(key);
    ConcurrentLinkedDeque<Link> pool =
        idle.computeIfAbsent(server, s -> new ConcurrentLinkedDeque<>());
    Link link;
    while ((link = pool.pollFirst()) != null) {
      if (link.connection.isOpen()) {
        return link;
      }
      link.connection.closeAsync();
    }
    try {
      StatefulRedisConnection<byte[], byte[]> connection = links.connect(key);
      return new Link(connection, connection.sync().clientId(), server);
    } catch (RuntimeException e) {
      throw RedisGateway.translate(e);
    }
  }

  private void release(Link link, boolean healthy) {
    if (healthy && !link.stale && !closed && link.connection.isOpen()) {
      idle.computeIfAbsent(link.server, s -> new ConcurrentLinkedDeque<>()).offerFirst(link);
    } else {
      link.connection.closeAsync();
    }
  }

  @Override
  public void close() {
    closed = true;
    for (ConcurrentLinkedDeque<Link> pool : idle.values()) {
      Link link;
      while ((link = pool.pollFirst()) != null) {
        link.connection.close();
      }
    }
  }
}
