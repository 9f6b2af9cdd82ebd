package io.lineup.dispatch;

import io.lineup.api.ErrorCode;
import io.lineup.dispatch.egress.EgressPolicy;
import io.lineup.dispatch.egress.EgressRefusedException;
import java.net.URI;

/** Refuses a URL being registered that the egress policy would never let a request reach. */
final class RegistrationCheck {
  private final EgressPolicy policy;

  RegistrationCheck(EgressPolicy policy) {
    this.policy = policy;
  }

  /**
   * Checks a base URL or callback prefix being registered, and its port.
   *
   * @param field the field that holds it, for the error
   * @throws DispatchInputException {@code egress_refused} (or {@code invalid_field} for the port)
   *     naming the field, with the reason
   */
  void check(String field, URI url) {
    if (url.getPort() == 0 || url.getPort() > 65_535) {
      throw DispatchInputException.invalidField(field, "must have a port from 1 to 65535");
    }
    try {
      policy.checkRegistration(url);
    } catch (EgressRefusedException refused) {
      throw new DispatchInputException(
              ErrorCode.EGRESS_REFUSED,
              field,
              refused.getMessage()
                  + ": the server's egress policy does not allow it (an operator can allow it"
                  + " with LINEUP_EGRESS_ALLOW)")
          .with("reason", refused.getMessage());
    }
  }
}
