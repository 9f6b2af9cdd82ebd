package io.lineup.spring;

import java.nio.charset.StandardCharsets;

/**
 * The job a {@link LineupHandler} method is running, the same in both modes.
 *
 * @param queue {@code namespace/name}
 * @param id the job's id
 * @param attempt which delivery this is, from 1
 * @param maxAttempts deliveries before dead letters
 * @param payload the bytes published (not a copy: do not change them)
 */
public record HandledJob(String queue, String id, int attempt, int maxAttempts, byte[] payload) {
  /** The payload as UTF-8 text. */
  public String payloadText() {
    return new String(payload, StandardCharsets.UTF_8);
  }

  /** Whether a failure now sends the job to dead letters. */
  public boolean lastAttempt() {
    return attempt >= maxAttempts;
  }
}
