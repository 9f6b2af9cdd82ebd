package io.lineup.client;

/**
 * 403: the token may not do this ({@code forbidden}: another namespace, a missing scope, an admin
 * route; {@code priority_not_allowed}: a priority above the token's maximum).
 */
public class ForbiddenException extends LineupClientException {
  ForbiddenException(int status, String code, String field, String message, String requestId) {
    super(status, code, field, message, requestId);
  }
}
