package io.lineup.core.internal.store;

import io.lineup.core.model.JobNotFoundException;
import io.lineup.core.model.LeaseLostException;
import io.lineup.core.model.LineupException;
import io.lineup.core.model.QueueName;

/**
 * The engine's exception for each failure code a settle script (ack, nack, extend, release)
 * returns.
 */
public final class ScriptFailures {
  private ScriptFailures() {}

  /**
   * The exception a settle of job {@code id} answered with {@code code} throws, or null for {@link
   * ScriptCode#OK}.
   *
   * @return {@link JobNotFoundException} for an unknown job, {@link LeaseLostException} with the
   *     reason for every code that says why the token no longer holds the job, a {@link
   *     LineupException} for a code no settle returns
   */
  public static LineupException ofSettle(ScriptCode code, QueueName queue, String id) {
    return switch (code) {
      case OK -> null;
      case NOT_FOUND -> new JobNotFoundException(queue, id);
      case LEASE_EXPIRED -> lost(id, LeaseLostException.Reason.EXPIRED_LEASE);
      case LEASED_AGAIN -> lost(id, LeaseLostException.Reason.LEASED_AGAIN);
      case CANCELLED -> lost(id, LeaseLostException.Reason.CANCELLED);
      case EXPIRED -> lost(id, LeaseLostException.Reason.JOB_EXPIRED);
      case ALREADY_DONE -> lost(id, LeaseLostException.Reason.ACKED);
      case NACKED -> lost(id, LeaseLostException.Reason.NACKED);
      case RELEASED -> lost(id, LeaseLostException.Reason.RELEASED);
      case WRONG_TOKEN -> lost(id, LeaseLostException.Reason.WRONG_TOKEN);
      case EXISTS, CHANGED -> new LineupException("Unexpected answer " + code + " for job " + id);
    };
  }

  private static LeaseLostException lost(String id, LeaseLostException.Reason reason) {
    return new LeaseLostException(id, reason);
  }
}
