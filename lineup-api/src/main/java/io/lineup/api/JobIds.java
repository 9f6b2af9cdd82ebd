package io.lineup.api;

/**
 * The rule for job ids. A caller may give a job its own id: 1 to {@value #MAX_LENGTH} characters
 * from {@code A-Z a-z 0-9 _ . : -}. The ids the engine generates start with {@code ~}, so they
 * never meet a caller's; paths take both.
 */
public final class JobIds {
  /** Longest job id, in characters. */
  public static final int MAX_LENGTH = 128;

  /** What a caller's id is, as the API's error messages give it (after the field name). */
  public static final String CALLER_ID_RULE =
      "must be 1 to " + MAX_LENGTH + " characters from A-Z a-z 0-9 _ . : -";

  /** What a job id in a path is, as the API's error messages give it. */
  public static final String PATH_ID_RULE =
      "a job id is 1 to " + MAX_LENGTH + " characters from A-Z a-z 0-9 _ . : - ~";

  private JobIds() {}

  /** Whether a text is an id a caller may give a job: {@code A-Z a-z 0-9 _ . : -}. */
  public static boolean isCallerId(String id) {
    if (id == null || id.isEmpty() || id.length() > MAX_LENGTH) {
      return false;
    }
    // A loop, not a regular expression: it runs on every publish.
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (!Names.isNameChar(c) && c != ':') {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether a text can be a job id in a path: a caller's id or a generated one, that is {@code A-Z
   * a-z 0-9 _ . : - ~}.
   */
  public static boolean isJobId(String id) {
    if (id == null || id.isEmpty() || id.length() > MAX_LENGTH) {
      return false;
    }
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (!Names.isNameChar(c) && c != ':' && c != '~') {
        return false;
      }
    }
    return true;
  }
}
