package io.lineup.spring;

import java.time.Duration;

/**
 * How one job is published by {@link LineupPublisher}: its id, delay, priority, attempts,
 * time-to-run and time to live. Immutable; each method returns a copy. Values are checked by the
 * engine or server when the job is published (see docs/engine.md for the bounds).
 *
 * @param id the job's id (publishing the same id twice makes one job), or null for a new id
 * @param delay how long until the job is due, or null for at once
 * @param priority higher first; 0 by default
 * @param maxAttempts deliveries before dead letters, or null for the queue's setting
 * @param timeToRun the lease length of each delivery, or null for the queue's setting
 * @param ttl how long the job may wait before it expires, or null for none
 */
public record PublishOptions(
    String id,
    Duration delay,
    int priority,
    Integer maxAttempts,
    Duration timeToRun,
    Duration ttl) {

  /** No id, no delay, priority 0, the queue's attempts and time-to-run, no TTL. */
  public static PublishOptions defaults() {
    return new PublishOptions(null, null, 0, null, null, null);
  }

  /** These options with the job's id. */
  public PublishOptions withId(String value) {
    return new PublishOptions(value, delay, priority, maxAttempts, timeToRun, ttl);
  }

  /** These options with a delay. */
  public PublishOptions withDelay(Duration value) {
    return new PublishOptions(id, value, priority, maxAttempts, timeToRun, ttl);
  }

  /** These options with a priority. */
  public PublishOptions withPriority(int value) {
    return new PublishOptions(id, delay, value, maxAttempts, timeToRun, ttl);
  }

  /** These options with the most deliveries. */
  public PublishOptions withMaxAttempts(int value) {
    return new PublishOptions(id, delay, priority, value, timeToRun, ttl);
  }

  /** These options with a time-to-run. */
  public PublishOptions withTimeToRun(Duration value) {
    return new PublishOptions(id, delay, priority, maxAttempts, value, ttl);
  }

  /** These options with a time to live. */
  public PublishOptions withTtl(Duration value) {
    return new PublishOptions(id, delay, priority, maxAttempts, timeToRun, value);
  }
}
