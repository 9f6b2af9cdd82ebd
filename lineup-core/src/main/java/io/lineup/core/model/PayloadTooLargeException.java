package io.lineup.core.model;

/**
 * A payload or a result is larger than its limit; nothing was written. {@link #field()} names which
 * ({@code payload} or {@code result}).
 */
public class PayloadTooLargeException extends InvalidArgumentException {
  private final long limitBytes;
  private final long actualBytes;

  /**
   * @param field {@code payload} or {@code result}
   * @param limitBytes the limit, in bytes
   * @param actualBytes the size given, in bytes
   */
  public PayloadTooLargeException(String field, long limitBytes, long actualBytes) {
    super(field, "must be at most " + limitBytes + " bytes, got " + actualBytes);
    this.limitBytes = limitBytes;
    this.actualBytes = actualBytes;
  }

  /** The limit, in bytes. */
  public long limitBytes() {
    return limitBytes;
  }

  /** The size given, in bytes. */
  public long actualBytes() {
    return actualBytes;
  }
}
