package io.lineup.dispatch.egress;

import java.io.IOException;

/**
 * The egress policy refused a target: no request was sent. The message is the reason, e.g. {@code
 * 127.0.0.1 is loopback}; {@link #CODE} prefixes it where an attempt's error is recorded.
 */
public final class EgressRefusedException extends IOException {
  /** The word that starts a refused attempt's error and names the refusal in an API error. */
  public static final String CODE = "egress_refused";

  /**
   * @param reason why, e.g. {@code 169.254.169.254 is link-local}
   */
  public EgressRefusedException(String reason) {
    super(reason);
  }

  /** The reason as an attempt records it: {@code egress_refused: 127.0.0.1 is loopback}. */
  public String error() {
    return CODE + ": " + getMessage();
  }
}
