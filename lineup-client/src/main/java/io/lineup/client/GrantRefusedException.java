package io.lineup.client;

/**
 * 403 {@code grant_refused}: the grant a join presented is unknown, used already, expired, or for
 * another room or subject ({@link #field()} is {@code grant} or {@code subject}).
 */
public class GrantRefusedException extends ForbiddenException {
  GrantRefusedException(int status, String code, String field, String message, String requestId) {
    super(status, code, field, message, requestId);
  }
}
