package io.lineup.client;

/**
 * An answer the client has no better type for: 500 {@code internal} (a bug; the server's log line
 * with {@link #requestId()} has the stack trace) or an unexpected status.
 */
public class ServerErrorException extends LineupClientException {
  ServerErrorException(int status, String code, String field, String message, String requestId) {
    super(status, code, field, message, requestId);
  }
}
