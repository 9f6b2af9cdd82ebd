package io.lineup.client;

/**
 * 409 {@code not_renewable}: the room's passes are not renewable, or the ticket holds no pass any
 * more.
 */
public class NotRenewableException extends LineupClientException {
  NotRenewableException(int status, String code, String field, String message, String requestId) {
    super(status, code, field, message, requestId);
  }
}
