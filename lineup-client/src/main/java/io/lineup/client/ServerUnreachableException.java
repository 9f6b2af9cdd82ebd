package io.lineup.client;

/**
 * No answer: the server could not be reached (connection refused, unknown host, TLS failure) or did
 * not answer within the request timeout. {@link #status()} is 0. A publish that timed out may or
 * may not have been done; publish with an id to make retrying it safe.
 */
public class ServerUnreachableException extends LineupClientException {
  ServerUnreachableException(String message, Throwable cause) {
    super(0, null, null, message, null, cause);
  }
}
