package io.lineup.client;

/**
 * 404 {@code not_found} (no such job, queue, namespace, token or route), {@code room_not_found} or
 * {@code schedule_not_found}.
 */
public class NotFoundException extends LineupClientException {
  NotFoundException(int status, String code, String field, String message, String requestId) {
    super(status, code, field, message, requestId);
  }
}
