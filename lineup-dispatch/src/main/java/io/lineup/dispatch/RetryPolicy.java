package io.lineup.dispatch;

import java.util.List;

/**
 * Which outcomes of an attempt are retried. An outcome is a status code, a connection error or a
 * timeout; names are {@code connection_error}, {@code timeout}, {@code 4xx}, {@code 5xx} or one
 * status code.
 *
 * @param retryOn the names of the retried outcomes
 */
public record RetryPolicy(List<String> retryOn) {

  /** Whether a name is one the policy understands. */
  public static boolean isOutcomeName(String name) {
    if (name.equals("connection_error")
        || name.equals("timeout")
        || name.equals("4xx")
        || name.equals("5xx")) {
      return true;
    }
    if (name.length() != 3) {
      return false;
    }
    try {
      int code = Integer.parseInt(name);
      return code >= 100 && code <= 599;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /** Whether a response with this status is retried (2xx never is). */
  public boolean retriesStatus(int status) {
    if (status >= 200 && status < 300) {
      return false;
    }
    String exact = Integer.toString(status);
    String family = (status / 100) + "xx";
    return retryOn.contains(exact) || retryOn.contains(family);
  }

  /** Whether a connection error is retried. */
  public boolean retriesConnectionError() {
    return retryOn.contains("connection_error");
  }

  /** Whether a timeout is retried. */
  public boolean retriesTimeout() {
    return retryOn.contains("timeout");
  }
}
