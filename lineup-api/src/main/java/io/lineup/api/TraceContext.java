package io.lineup.api;

import java.util.Optional;

/**
 * A W3C Trace Context (https://www.w3.org/TR/trace-context/) stored with a job: the {@code
 * traceparent} of the span that published it, and the vendors' {@code tracestate} if any. Lineup
 * stores it, returns it with the job and sends it to a dispatch endpoint; it never changes it.
 *
 * <p>A traceparent is version {@code 00}: {@code 00-<trace id: 32 hex>-<parent id: 16 hex>-<flags:
 * 2 hex>}, lower-case, neither id all zeros ({@value #TRACEPARENT_LENGTH} characters). A tracestate
 * is at most {@value #MAX_TRACESTATE_LENGTH} printable ASCII characters (0x20 to 0x7e), not blank.
 *
 * @param traceparent the traceparent header's value
 * @param tracestate the tracestate header's value, or null for none
 */
public record TraceContext(String traceparent, String tracestate) {
  /** The header that carries the traceparent. */
  public static final String TRACEPARENT = "traceparent";

  /** The header that carries the tracestate. */
  public static final String TRACESTATE = "tracestate";

  /** Length of a version-00 traceparent, in characters. */
  public static final int TRACEPARENT_LENGTH = 55;

  /** Longest tracestate kept, in characters (the W3C's 32 list members of up to 256 fit most). */
  public static final int MAX_TRACESTATE_LENGTH = 512;

  /** What a traceparent is, as the API's error messages give it (after the field name). */
  public static final String TRACEPARENT_RULE =
      "must be 00-<32 hex>-<16 hex>-<2 hex> in lower case, neither id all zeros";

  /** What a tracestate is, as the API's error messages give it (after the field name). */
  public static final String TRACESTATE_RULE =
      "must be 1 to " + MAX_TRACESTATE_LENGTH + " printable ASCII characters";

  /**
   * Checks both values.
   *
   * @throws IllegalArgumentException naming {@code traceparent} or {@code tracestate} and the rule
   *     it breaks
   */
  public TraceContext {
    if (!isTraceparent(traceparent)) {
      throw new IllegalArgumentException(TRACEPARENT + " " + TRACEPARENT_RULE);
    }
    if (tracestate != null && !isTracestate(tracestate)) {
      throw new IllegalArgumentException(TRACESTATE + " " + TRACESTATE_RULE);
    }
  }

  /**
   * The context of two header values as a receiver takes them: none when the traceparent is absent
   * or invalid (the W3C says to start a new trace then), and the tracestate dropped when it is
   * invalid.
   *
   * @param traceparent the traceparent header, or null
   * @param tracestate the tracestate header, or null
   */
  public static Optional<TraceContext> lenient(String traceparent, String tracestate) {
    if (traceparent == null) {
      return Optional.empty();
    }
    String parent = traceparent.strip();
    if (!isTraceparent(parent)) {
      return Optional.empty();
    }
    String state = tracestate == null ? null : tracestate.strip();
    return Optional.of(new TraceContext(parent, isTracestate(state) ? state : null));
  }

  /** Whether a text is a valid version-00 traceparent (see the class comment). */
  public static boolean isTraceparent(String value) {
    if (value == null || value.length() != TRACEPARENT_LENGTH) {
      return false;
    }
    if (value.charAt(0) != '0'
        || value.charAt(1) != '0'
        || value.charAt(2) != '-'
        || value.charAt(35) != '-'
        || value.charAt(52) != '-') {
      return false;
    }
    return hex(value, 3, 35) && hex(value, 36, 52) && hex(value, 53, 55);
  }

  /** Whether a text is a tracestate Lineup keeps (see the class comment). */
  public static boolean isTracestate(String value) {
    if (value == null || value.isEmpty() || value.length() > MAX_TRACESTATE_LENGTH) {
      return false;
    }
    boolean blank = true;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x20 || c > 0x7e) {
        return false;
      }
      blank &= c == ' ';
    }
    return !blank;
  }

  /**
   * The stored form: the traceparent, then a space and the tracestate when there is one (a
   * traceparent holds no space).
   */
  public String stored() {
    return tracestate == null ? traceparent : traceparent + ' ' + tracestate;
  }

  /**
   * The context of a stored form ({@link #stored()}), read as a receiver reads headers ({@link
   * #lenient}): null when {@code stored} is null, empty or holds no valid traceparent (a record
   * written some other way never fails the read of its job), the tracestate dropped when invalid.
   */
  public static TraceContext ofStored(String stored) {
    if (stored == null || stored.isEmpty()) {
      return null;
    }
    int space = stored.indexOf(' ');
    return (space < 0
            ? lenient(stored, null)
            : lenient(stored.substring(0, space), stored.substring(space + 1)))
        .orElse(null);
  }

  /** Lower-case hex from {@code from} to {@code to} (exclusive), not all zeros. */
  private static boolean hex(String value, int from, int to) {
    boolean zero = true;
    for (int i = from; i < to; i++) {
      char c = value.charAt(i);
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
        return false;
      }
      zero &= c == '0';
    }
    // Flags may be 00; the ids may not be all zeros.
    return !zero || to - from == 2;
  }
}
