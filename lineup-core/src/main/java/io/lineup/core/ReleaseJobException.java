package io.lineup.core;

import io.lineup.consumer.JobHandler;
import io.lineup.core.model.LeasedJob;

/**
 * Thrown by a {@link JobHandler} to give its job back unused: the job returns to its place in the
 * ready line at once and the attempt is not counted (as {@link Lineup#release(LeasedJob)}). For a
 * handler that finds, after the lease, that it must not do the work now (for example because a
 * shared switch closed meanwhile); a handler that keeps doing this leases the job again and again.
 */
public class ReleaseJobException extends RuntimeException {
  /**
   * @param reason why the job is given back (for the log; not stored)
   */
  public ReleaseJobException(String reason) {
    super(reason, null, false, false);
  }
}
