package io.lineup.core.model;

/**
 * Redis refused a write because it reached its {@code maxmemory} limit (under the {@code
 * noeviction} policy Lineup expects). Only the calls that add jobs or settings (publish, configure)
 * are refused, before their script starts, so a refused call changed nothing; leases, acks, nacks,
 * extends, releases, cancels and the background sweeps go on at the limit. Consuming and
 * acknowledging jobs frees memory, so the same call may succeed later.
 */
public class RedisOutOfMemoryException extends LineupException {
  public RedisOutOfMemoryException(String message, Throwable cause) {
    super(message, cause);
  }
}
