package io.lineup.cli;

import io.lineup.client.DeadlineUnreachableException;
import io.lineup.client.ForbiddenException;
import io.lineup.client.InvalidRequestException;
import io.lineup.client.KeyBacklogFullException;
import io.lineup.client.LineupClientException;
import io.lineup.client.NotFoundException;
import io.lineup.client.PayloadTooLargeException;
import io.lineup.client.RetryableException;
import io.lineup.client.ServerUnreachableException;
import io.lineup.client.UnauthorizedException;

/** What each exit code of {@code lineup} means, and the one-line message of each failure. */
final class ExitCodes {
  /** Done. */
  static final int OK = 0;

  /** An unexpected error (a server error, a bug). */
  static final int ERROR = 1;

  /** Bad arguments, or input the server refused (400, 413). */
  static final int USAGE = 2;

  /** The server could not be reached or did not answer in time. */
  static final int UNREACHABLE = 3;

  /** The token was refused (401) or may not do this (403). */
  static final int REFUSED = 4;

  /** No such queue, job, namespace or token (404). */
  static final int NOT_FOUND = 5;

  /** A conflict (409): lease lost, job already finished, namespace exists. */
  static final int CONFLICT = 6;

  /**
   * The server is busy or unavailable (429, 503): try again later; or a deadline the line cannot
   * meet (429 {@code deadline_unreachable}); or a fairness key with its most jobs waiting (429
   * {@code key_backlog_full}).
   */
  static final int UNAVAILABLE = 7;

  /** consume --exec: at least one job's command failed (its job was nacked). */
  static final int JOBS_FAILED = 8;

  /** {@code rooms join --wait}: the ticket was not admitted within the wait. */
  static final int NOT_ADMITTED = 9;

  private ExitCodes() {}

  static int of(LineupClientException e) {
    if (e instanceof ServerUnreachableException) {
      return UNREACHABLE;
    }
    if (e instanceof UnauthorizedException || e instanceof ForbiddenException) {
      return REFUSED;
    }
    if (e instanceof NotFoundException) {
      return NOT_FOUND;
    }
    if (e instanceof InvalidRequestException || e instanceof PayloadTooLargeException) {
      return USAGE;
    }
    if (e instanceof RetryableException
        || e instanceof DeadlineUnreachableException
        || e instanceof KeyBacklogFullException) {
      return UNAVAILABLE;
    }
    if (e.status() == 409) {
      return CONFLICT;
    }
    return ERROR;
  }

  /** One line that says what went wrong and, where it helps, what to do. */
  static String describe(Exception e) {
    if (e instanceof ServerUnreachableException) {
      return e.getMessage() + " (is the server running? set --url or LINEUP_URL)";
    }
    if (e instanceof UnauthorizedException) {
      return "the server refused the token: " + e.getMessage() + " (set --token or LINEUP_TOKEN)";
    }
    if (e instanceof LineupClientException client) {
      String where = client.field() == null ? "" : " [" + client.field() + "]";
      String code = client.code() == null ? "HTTP " + client.status() : client.code();
      return e.getMessage() + where + " (" + code + ")";
    }
    if (e instanceof CliException) {
      return e.getMessage();
    }
    String message = e.getMessage();
    return e.getClass().getSimpleName() + (message == null ? "" : ": " + message);
  }
}
