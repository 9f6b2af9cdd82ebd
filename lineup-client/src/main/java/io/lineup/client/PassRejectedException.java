package io.lineup.client;

/**
 * 403 {@code pass_rejected}: the online check refused a pass. {@link #reason()} says why: {@code
 * bad_signature}, {@code expired}, {@code wrong_room}, {@code unknown_key}, {@code
 * unsupported_algorithm}, {@code not_yet_valid} or {@code revoked} (revoked, or its ticket no
 * longer holds its slot). A text that is not a pass at all is an {@link InvalidRequestException}.
 */
public class PassRejectedException extends ForbiddenException {
  private final String reason;

  PassRejectedException(
      int status, String code, String field, String message, String requestId, String reason) {
    super(status, code, field, message, requestId);
    this.reason = reason;
  }

  /** Why the pass was refused, as the server names it (e.g. {@code revoked}). */
  public String reason() {
    return reason;
  }
}
