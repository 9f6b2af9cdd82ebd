package io.lineup.server;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.RetainableByteBuffer;

/**
 * The bytes a lane connection has read and not yet served. While bytes are unread they sit in a
 * buffer of a head's size from Jetty's pool (or, for a body larger than that, in a buffer of the
 * request's own size); while the connection waits with nothing unread it holds no buffer, as
 * Jetty's own connections do.
 *
 * <p>Used by one connection, one step at a time (Jetty's selector thread, or the thread that writes
 * an answer); only {@link #forget} may come from another thread, when the connection is closed.
 */
final class LaneReadBuffer {
  private final ByteBufferPool pool;
  private final int headBytes;
  private final AtomicInteger held;

  /** The unread bytes, in flush mode (position to limit); null while there is no buffer. */
  private ByteBuffer in;

  /**
   * The pool's buffer behind {@link #in}; null when there is none or it is a large body's own.
   * Taken from here exactly once: to give it back, or by {@link #forget}, which leaves it to the
   * garbage collector rather than risk two users of one buffer.
   */
  private final AtomicReference<RetainableByteBuffer> pooled = new AtomicReference<>();

  /**
   * @param pool the connector's buffer pool
   * @param headBytes the size of a head buffer: the largest head the lane reads, in bytes
   * @param held the count of pooled buffers all lane connections hold, kept up to date here
   */
  LaneReadBuffer(ByteBufferPool pool, int headBytes, AtomicInteger held) {
    this.pool = pool;
    this.headBytes = headBytes;
    this.held = held;
  }

  /**
   * The unread bytes, in flush mode; a buffer is taken from the pool when there is none, so that
   * {@code EndPoint.fill} reads into it at most a head's worth.
   */
  ByteBuffer bytes() {
    if (in == null) {
      in = take();
    }
    return in;
  }

  /** Whether bytes are unread. */
  boolean hasUnread() {
    return in != null && in.hasRemaining();
  }

  /**
   * Makes room for a request of {@code size} bytes from the buffer's position: moves the unread
   * bytes to the front when the request would not fit behind them, into a buffer of exactly that
   * size when it is larger than a head buffer (a large body), so that nothing past the request is
   * read into it. Read {@link #bytes()} again after it.
   *
   * @return whether unread bytes moved (a head parsed before must be parsed again where they are)
   */
  boolean makeRoom(int size) {
    ByteBuffer current = bytes();
    int moved = current.position();
    if (size > current.capacity()) {
      ByteBuffer larger = ByteBuffer.allocate(size);
      larger.put(current).flip();
      release();
      in = larger;
    } else if (moved > 0 && moved + size > current.capacity()) {
      current.compact().flip();
    } else {
      return false;
    }
    return moved > 0;
  }

  /**
   * Gives the buffer back to the pool (when it is the pool's) and holds none until {@link #bytes()}
   * is called again; the unread bytes, if any, are dropped.
   */
  void release() {
    in = null;
    RetainableByteBuffer buffer = pooled.getAndSet(null);
    if (buffer != null) {
      held.decrementAndGet();
      buffer.release();
    }
  }

  /**
   * For the connection that takes over: a copy of the unread bytes (null when none), since Jetty
   * closes this connection before the next one reads them; then the buffer is given back.
   */
  ByteBuffer takeUnread() {
    ByteBuffer unread = null;
    if (hasUnread()) {
      unread = ByteBuffer.allocate(in.remaining());
      unread.put(in).flip();
    }
    release();
    return unread;
  }

  /**
   * The connection is closed, perhaps from another thread while a request is read: the buffer is no
   * longer counted, and not given back to the pool.
   */
  void forget() {
    if (pooled.getAndSet(null) != null) {
      held.decrementAndGet();
    }
  }

  private ByteBuffer take() {
    RetainableByteBuffer.Mutable taken = pool.acquire(headBytes, false);
    ByteBuffer buffer = taken.getByteBuffer();
    if (!buffer.hasArray() || buffer.arrayOffset() != 0 || buffer.capacity() < headBytes) {
      // The parser reads the array from its start; a pool that gives anything else is not used.
      taken.release();
      return ByteBuffer.allocate(headBytes).flip();
    }
    pooled.set(taken);
    held.incrementAndGet();
    return buffer.clear().slice(0, headBytes).flip();
  }
}
