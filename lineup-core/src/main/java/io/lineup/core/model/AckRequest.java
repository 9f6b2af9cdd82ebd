package io.lineup.core.model;

/**
 * One ack of {@link io.lineup.core.Lineup#ackAll}: a leased job's id, its lease token and an
 * optional result.
 *
 * @param id the job's id
 * @param token the lease token the lease returned
 * @param result bytes kept with the finished job for the retention window (at most {@link
 *     Limits#MAX_RESULT_BYTES}), or null for none
 */
public record AckRequest(String id, String token, byte[] result) {
  /** An ack of a leased job without a result. */
  public static AckRequest of(LeasedJob job) {
    return new AckRequest(job.id(), job.token(), null);
  }
}
