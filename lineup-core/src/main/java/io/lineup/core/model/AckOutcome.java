package io.lineup.core.model;

/**
 * What one ack of {@link io.lineup.core.Lineup#ackAll} came to.
 *
 * @param id the job's id
 * @param failure null when the job is acknowledged (also for a repeated ack of the same lease);
 *     else what {@link io.lineup.core.Lineup#ack(QueueName, String, String, byte[])} would have
 *     thrown for it: a {@link LeaseLostException} with the reason, or a {@link
 *     JobNotFoundException}
 */
public record AckOutcome(String id, LineupException failure) {
  /** Whether the job is acknowledged. */
  public boolean acked() {
    return failure == null;
  }
}
