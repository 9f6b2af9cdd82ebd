package io.lineup.client;

/**
 * 413: the payload or result is over its limit ({@code payload_too_large}), or the body over the
 * body limit ({@code body_too_large}).
 */
public class PayloadTooLargeException extends LineupClientException {
  PayloadTooLargeException(
      int status, String code, String field, String message, String requestId) {
    super(status, code, field, message, requestId);
  }
}
