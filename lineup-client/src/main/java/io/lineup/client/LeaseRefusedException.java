package io.lineup.client;

import java.time.Duration;

/**
 * 429 {@code rate_limited} or {@code concurrency_limited}: a queue limit refused the lease for the
 * whole wait; {@link #retryAfter()} says when one can succeed.
 */
public class LeaseRefusedException extends RetryableException {
  LeaseRefusedException(String code, String message, String requestId, Duration retryAfter) {
    super(429, code, null, message, requestId, retryAfter);
  }
}
