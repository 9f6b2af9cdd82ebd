package io.lineup.core.model;

import java.util.regex.Pattern;

/**
 * The rule for fairness keys: the tenant, customer or user a job of a fair queue is served for. A
 * key is 1 to {@value #MAX_LENGTH} characters of ASCII letters, digits and {@code - _ . : @ / + =}
 * (so it reads the same in a URL path, a header and a log line, and never collides with the
 * engine's own fields, which start with {@code #}).
 */
public final class FairnessKey {
  /** Most characters of a key. */
  public static final int MAX_LENGTH = 128;

  private static final Pattern ALLOWED =
      Pattern.compile("[A-Za-z0-9._:@/+=-]{1," + MAX_LENGTH + "}");

  private FairnessKey() {}

  /** Whether key follows the rule. */
  public static boolean isValid(String key) {
    return key != null && ALLOWED.matcher(key).matches();
  }

  /**
   * Checks a key.
   *
   * @param field the name of the field the key came in, for the message
   * @throws InvalidArgumentException when key does not follow the rule
   */
  public static String check(String field, String key) {
    if (!isValid(key)) {
      throw new InvalidArgumentException(
          field,
          "must be 1 to " + MAX_LENGTH + " characters of letters, digits and - _ . : @ / + =");
    }
    return key;
  }
}
