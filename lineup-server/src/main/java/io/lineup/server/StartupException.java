package io.lineup.server;

import java.net.BindException;

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

  /**
   * The one-line failure for an address that cannot be bound, with the operating system's reason
   * (e.g. "Address already in use") when the failure carries one. Both places that bind the HTTP
   * port use it: the server's check before Redis starts, and the HTTP layer when another process
   * took the port since.
   *
   * @param host the address the server was told to listen on
   * @param port the port the server was told to listen on
   * @param cause the failure to bind
   * @return the failure to throw
   */
  static StartupException portTaken(String host, int port, Throwable cause) {
    String reason = cause.getMessage();
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof BindException bind && bind.getMessage() != null) {
        reason = bind.getMessage();
        break;
      }
    }
    return new StartupException(
        "Cannot listen on "
            + host
            + " port "
            + port
            + " ("
            + reason
            + "); stop what uses it, or choose another port with LINEUP_PORT or --port",
        cause);
  }
}
