package io.lineup.spring;

/**
 * Publishes jobs the same way in both modes (embedded engine or client of a server). Inside an
 * active Spring transaction, with {@code lineup.publish.after-commit} on (the default), the job is
 * published only once the transaction commits, so a rolled-back order never schedules its close
 * job; outside a transaction it is published at once.
 *
 * <p>The payload: a {@code byte[]} is sent as it is, a {@code String} as its UTF-8 text, anything
 * else as JSON written by the {@link PayloadCodec} (the context's Jackson mapper by default).
 */
public interface LineupPublisher {
  /**
   * Publishes a job due at once.
   *
   * @param queue {@code namespace/name}
   * @param payload the job's payload
   * @return the job's id and whether it was deferred
   * @throws IllegalArgumentException when the queue's name is malformed
   * @throws RuntimeException the engine's or client's own exceptions when the job is refused or
   *     Lineup cannot be reached (at once, or logged when deferred past a commit)
   */
  default PublishReceipt publish(String queue, Object payload) {
    return publish(queue, payload, PublishOptions.defaults());
  }

  /**
   * Publishes a job with options (id, delay, priority...).
   *
   * @param queue {@code namespace/name}
   * @param payload the job's payload
   * @param options how to publish it
   * @return the job's id and whether it was deferred
   * @throws IllegalArgumentException when the queue's name is malformed
   * @throws RuntimeException the engine's or client's own exceptions when the job is refused or
   *     Lineup cannot be reached (at once, or logged when deferred past a commit)
   */
  PublishReceipt publish(String queue, Object payload, PublishOptions options);
}
