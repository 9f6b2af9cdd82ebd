package io.lineup.client;

import java.time.Duration;

/**
 * 503: {@code redis_unavailable}, {@code redis_out_of_memory} or {@code shutting_down}. Nothing was
 * done; try again after {@link #retryAfter()} (another instance, for {@code shutting_down}).
 */
public class ServiceUnavailableException extends RetryableException {
  ServiceUnavailableException(String code, String message, String requestId, Duration retryAfter) {
    super(503, code, null, message, requestId, retryAfter);
  }
}
