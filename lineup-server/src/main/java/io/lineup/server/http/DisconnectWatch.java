package io.lineup.server.http;

import io.javalin.http.Context;
import java.io.IOException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.locks.ReentrantLock;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.io.AbstractEndPoint;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Interrupts a thread blocked in a long-poll when its client goes away or the server shuts down, so
 * the engine ends the wait without taking a job.
 *
 * <p>While a handler blocks, Jetty does not read the connection, so it would not notice a client
 * that closed it. The watch asks the connection's end point to report when it becomes readable:
 * after a complete request that only happens when the client closes it (a read returns end of
 * stream) or sends bytes early. Before the answer is written the watch is closed, which withdraws
 * that interest so Jetty can read the next request on the connection as usual.
 *
 * <p>The connection's idle timeout is raised for the wait (wait plus {@value #IDLE_MARGIN_MS} ms)
 * so a long wait is not cut by it, and restored afterwards.
 */
public final class DisconnectWatch implements AutoCloseable {
  /** Added to the wait to make the connection's idle timeout during a long-poll, in ms. */
  public static final long IDLE_MARGIN_MS = 30_000;

  private static final Logger LOG = LoggerFactory.getLogger(DisconnectWatch.class);
  private static final CancellationException ANSWERED =
      new CancellationException("the long-poll ended");

  /** Why a watched wait was interrupted. */
  public enum Cause {
    NONE,
    CLIENT_GONE,
    SHUTDOWN
  }

  private final Thread waiter;
  private final EndPoint endPoint;
  private final long idleTimeoutBefore;
  private final LeaseWaiters registry;
  private final ReentrantLock lock = new ReentrantLock();
  private boolean waiting = true;
  private boolean interestRegistered;
  private Cause cause = Cause.NONE;
  private boolean extraBytesRead;

  private DisconnectWatch(
      Thread waiter, EndPoint endPoint, long waitMillis, LeaseWaiters registry) {
    this.waiter = waiter;
    this.endPoint = endPoint;
    this.registry = registry;
    this.idleTimeoutBefore = endPoint == null ? 0 : endPoint.getIdleTimeout();
    if (endPoint != null && idleTimeoutBefore > 0) {
      endPoint.setIdleTimeout(Math.max(idleTimeoutBefore, waitMillis + IDLE_MARGIN_MS));
    }
  }

  /**
   * Starts watching the calling thread's request. Call after the body has been read.
   *
   * @param waitMillis how long the handler may block
   * @param registry the server's waiters, interrupted together at shutdown
   */
  public static DisconnectWatch start(Context ctx, long waitMillis, LeaseWaiters registry) {
    EndPoint endPoint = endPointOf(ctx);
    DisconnectWatch watch =
        new DisconnectWatch(Thread.currentThread(), endPoint, waitMillis, registry);
    registry.add(watch);
    if (endPoint != null) {
      watch.listen();
    }
    return watch;
  }

  private static EndPoint endPointOf(Context ctx) {
    try {
      ServletContextRequest request = ServletContextRequest.getServletContextRequest(ctx.req());
      return request == null ? null : request.getConnectionMetaData().getConnection().getEndPoint();
    } catch (RuntimeException e) {
      LOG.debug("Cannot watch this connection for a disconnect", e);
      return null;
    }
  }

  private void listen() {
    lock.lock();
    try {
      if (!waiting) {
        return;
      }
      interestRegistered = endPoint.tryFillInterested(new Readable());
      if (!interestRegistered) {
        LOG.debug("The connection is already being read; a disconnect will not end this wait");
      }
    } finally {
      lock.unlock();
    }
  }

  /** Called when the connection can be read: the client closed it or sent more bytes. */
  private void onReadable() {
    lock.lock();
    try {
      interestRegistered = false;
      if (!waiting) {
        return;
      }
    } finally {
      lock.unlock();
    }
    int read;
    try {
      // Jetty buffers are in flush mode: BufferUtil makes an empty one with room to fill.
      read = endPoint.fill(BufferUtil.allocate(256));
    } catch (IOException e) {
      read = -1;
    }
    if (read < 0) {
      interrupt(Cause.CLIENT_GONE);
    } else {
      if (read > 0) {
        // Bytes sent before the answer (pipelining) cannot be put back: the connection will be
        // closed after this answer instead of being reused.
        extraBytesRead = true;
      }
      listen();
    }
  }

  /** Interrupts the waiting thread, once, unless its wait already ended. */
  void interrupt(Cause why) {
    lock.lock();
    try {
      if (waiting && cause == Cause.NONE) {
        cause = why;
        waiter.interrupt();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Why the wait was interrupted ({@link Cause#NONE} when it was not). */
  public Cause cause() {
    lock.lock();
    try {
      return cause;
    } finally {
      lock.unlock();
    }
  }

  /** Whether the connection must be closed after the answer (bytes were read early). */
  public boolean mustCloseConnection() {
    return extraBytesRead;
  }

  /**
   * Ends the watch: no interrupt can arrive after this returns, and the interrupt flag of the
   * calling thread is cleared if the watch set it.
   */
  @Override
  public void close() {
    boolean withdraw;
    boolean interrupted;
    lock.lock();
    try {
      waiting = false;
      withdraw = interestRegistered;
      interestRegistered = false;
      interrupted = cause != Cause.NONE;
    } finally {
      lock.unlock();
    }
    registry.remove(this);
    if (interrupted) {
      // The interrupt was delivered under the lock; clear what the engine did not consume.
      Thread.interrupted();
    }
    if (endPoint != null) {
      if (withdraw && endPoint instanceof AbstractEndPoint abstractEndPoint) {
        abstractEndPoint.getFillInterest().onFail(ANSWERED);
      }
      if (idleTimeoutBefore > 0) {
        endPoint.setIdleTimeout(idleTimeoutBefore);
      }
    }
  }

  private final class Readable implements Callback {
    @Override
    public void succeeded() {
      onReadable();
    }

    @Override
    public void failed(Throwable x) {
      lock.lock();
      try {
        interestRegistered = false;
      } finally {
        lock.unlock();
      }
      if (x != ANSWERED && !(x instanceof java.util.concurrent.TimeoutException)) {
        interrupt(Cause.CLIENT_GONE);
      }
    }
  }
}
