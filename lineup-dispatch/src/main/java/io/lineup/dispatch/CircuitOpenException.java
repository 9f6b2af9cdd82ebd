package io.lineup.dispatch;

/**
 * An endpoint cannot be resumed while its circuit breaker holds its queue paused (open, or half
 * open with one probe at a time): resuming would change nothing that sends tasks. The breaker
 * closes by itself after a successful probe, or at once by a reset ({@link
 * Endpoints#resetCircuit}). Nothing was changed.
 */
public final class CircuitOpenException extends DispatchException {
  private final EndpointKey key;
  private final String state;

  /**
   * @param key the endpoint
   * @param breaker its breaker as read when the resume was refused
   */
  public CircuitOpenException(EndpointKey key, BreakerState breaker) {
    super(
        "the circuit breaker of endpoint "
            + key.name()
            + " is "
            + breaker.json().replace('_', ' ')
            + " after "
            + breaker.failures()
            + " consecutive failed attempts and holds its tasks"
            + (breaker.state() == BreakerState.State.OPEN
                ? " until its probe at " + breaker.openUntil() + " (epoch ms)"
                : " to one probe at a time")
            + ": reset the circuit (POST /v1/endpoints/"
            + key.namespace()
            + "/"
            + key.name()
            + "/circuit/reset) to resume now");
    this.key = key;
    this.state = breaker.json();
  }

  /** The endpoint. */
  public EndpointKey key() {
    return key;
  }

  /**
   * Its breaker's state when the resume was refused, as the API writes it ({@code open} or {@code
   * half_open}): text, so that callers answering it need not know the breaker's type.
   */
  public String state() {
    return state;
  }
}
