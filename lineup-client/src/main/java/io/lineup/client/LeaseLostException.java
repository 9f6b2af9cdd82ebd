package io.lineup.client;

import io.lineup.api.ErrorCode;

/**
 * 409 {@code lease_lost}: the lease token no longer holds the job. {@link #reason()} says why:
 * {@code expired_lease}, {@code leased_again}, {@code nacked}, {@code released}, {@code acked},
 * {@code wrong_token}, {@code cancelled} or {@code job_expired}.
 */
public class LeaseLostException extends LineupClientException {
  private final String reason;

  LeaseLostException(String field, String message, String requestId, String reason) {
    super(409, ErrorCode.LEASE_LOST.code(), field, message, requestId);
    this.reason = reason;
  }

  /** Why the lease was lost, or null when the server did not say. */
  public String reason() {
    return reason;
  }
}
