package io.lineup.server.consumers;

import io.lineup.server.auth.Principal;
import io.lineup.server.http.ApiException;
import java.util.regex.Pattern;

/** What a consumer may be called, and the name of one that gives none. */
public final class ConsumerNames {
  /** Longest consumer name, in characters. */
  public static final int MAX_LENGTH = 64;

  /** The rule a name follows, for error messages and docs. */
  public static final String RULE =
      "1 to " + MAX_LENGTH + " characters from A-Z a-z 0-9 _ . - : @ /";

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.:@/-]{1," + MAX_LENGTH + "}");

  private ConsumerNames() {}

  /**
   * A name given by the caller.
   *
   * @param field the request field that gave it, for the error
   * @throws ApiException 400 {@code invalid_field} when it breaks {@link #RULE}
   */
  public static String checked(String field, String name) {
    if (name == null || !NAME.matcher(name).matches()) {
      throw ApiException.invalidField(field, "must be " + RULE);
    }
    return name;
  }

  /**
   * The name of a consumer that gives none: its token ({@code admin}, or {@code token-} and the
   * token's id, never the token itself) and the address it connects from, e.g. {@code
   * token-7f3a@10.0.0.4}. Workers on one host with one token share it.
   */
  public static String derived(Principal principal, String remoteAddress) {
    String who = principal.admin() ? "admin" : "token-" + principal.tokenId();
    String address =
        remoteAddress == null ? "unknown" : remoteAddress.replaceAll("[^A-Za-z0-9_.:-]", "");
    String name = who + "@" + address;
    return name.length() <= MAX_LENGTH ? name : name.substring(0, MAX_LENGTH);
  }
}
