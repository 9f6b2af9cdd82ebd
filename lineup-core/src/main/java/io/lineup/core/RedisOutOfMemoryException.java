package io.lineup.core;

/**
 * Redis refused a write because it reached its {@code maxmemory} limit (under the {@code
 * noeviction} policy Lineup expects). The script that was refused changed nothing: Redis checks
 * memory before a script's first write. Consuming and acknowledging jobs frees memory, so the same
 * call may succeed later.
 */
public class RedisOutOfMemoryException extends LineupException {
  public RedisOutOfMemoryException(String message, Throwable cause) {
    super(message, cause);
  }
}
