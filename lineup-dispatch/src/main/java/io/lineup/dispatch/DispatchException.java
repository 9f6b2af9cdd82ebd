package io.lineup.dispatch;

/**
 * A dispatch request that cannot be done as asked; each subclass names one reason, which a caller
 * (the server's error mapping) tells apart by type. Nothing was stored, queued or sent.
 */
public abstract sealed class DispatchException extends RuntimeException
    permits CircuitOpenException,
        DispatchInputException,
        EndpointNotFoundException,
        TaskNotFoundException {
  /**
   * @param message what went wrong, for the caller
   */
  DispatchException(String message) {
    // Refusals are answers to the caller, not faults: no stack trace to fill.
    super(message, null, false, false);
  }
}
