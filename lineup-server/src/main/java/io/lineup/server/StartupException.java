package io.lineup.server;

/**
 * The server could not start for a reason the operator can fix: the data folder is in use by
 * another server, or the HTTP port is taken. The message says what happened and what to do, in one
 * line; {@link Main} prints it without a stack trace and exits with 1.
 */
public final class StartupException extends RuntimeException {
  /**
   * @param message what happened and what to do, one line
   */
  public StartupException(String message) {
    super(message);
  }

  /**
   * @param message what happened and what to do, one line
   * @param cause the failure underneath
   */
  public StartupException(String message, Throwable cause) {
    super(message, cause);
  }
}
