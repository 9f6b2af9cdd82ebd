package io.lineup.client;

/**
 * 400: the request was malformed or a field was wrong ({@code invalid_json}, {@code invalid_field},
 * {@code unknown_field}, {@code invalid_name}, {@code bad_request}); {@link #field()} names it.
 */
public class InvalidRequestException extends LineupClientException {
  InvalidRequestException(int status, String code, String field, String message, String requestId) {
    super(status, code, field, message, requestId);
  }
}
