package io.lineup.client;

/** 401 {@code unauthorized}: no token, or an unknown, malformed or revoked one. */
public class UnauthorizedException extends LineupClientException {
  UnauthorizedException(int status, String code, String field, String message, String requestId) {
    super(status, code, field, message, requestId);
  }
}
