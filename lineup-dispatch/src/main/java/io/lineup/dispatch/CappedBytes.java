package io.lineup.dispatch;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Collects a response body up to a limit: its first {@code limit} bytes, and one more when it is
 * longer, so that the reader knows it was cut. Grows by doubling, never past {@code limit + 1}
 * bytes. Used by the egress client ({@link EgressClient}). Not thread-safe.
 */
final class CappedBytes {
  private final int limit;
  private byte[] bytes = new byte[0];
  private int size;

  /**
   * @param limit the most bytes kept; one more is kept when the body is longer
   */
  CappedBytes(int limit) {
    this.limit = limit;
  }

  /**
   * Adds {@code length} bytes of {@code from} at {@code offset} (as many as fit).
   *
   * @return true once more than the limit is held: the rest is not wanted
   */
  boolean add(byte[] from, int offset, int length) {
    int take = room(length);
    System.arraycopy(from, offset, bytes, size, take);
    size += take;
    return size > limit;
  }

  /**
   * Adds the remaining bytes of {@code from} (as many as fit), advancing its position.
   *
   * @return true once more than the limit is held: the rest is not wanted
   */
  boolean add(ByteBuffer from) {
    int take = room(from.remaining());
    from.get(bytes, size, take);
    size += take;
    return size > limit;
  }

  /** The bytes collected so far. */
  byte[] bytes() {
    return size == bytes.length ? bytes : Arrays.copyOf(bytes, size);
  }

  /** How many of {@code length} bytes fit, with the array grown to hold them. */
  private int room(int length) {
    int take = Math.min(length, limit + 1 - size);
    if (size + take > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.min(limit + 1, Math.max(size + take, bytes.length * 2)));
    }
    return take;
  }
}
