package io.lineup.client;

/** 409 {@code already_exists}: the namespace is already registered. */
public class AlreadyExistsException extends LineupClientException {
  AlreadyExistsException(int status, String code, String field, String message, String requestId) {
    super(status, code, field, message, requestId);
  }
}
