package io.lineup.core.model;

/**
 * Redis could not be reached or did not answer in time. Nothing is known to have changed; the
 * engine reconnects by itself, so the same call may succeed later.
 */
public class RedisUnavailableException extends LineupException {
  public RedisUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
