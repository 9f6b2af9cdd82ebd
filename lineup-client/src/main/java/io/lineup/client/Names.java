package io.lineup.client;

import java.util.regex.Pattern;

/** The checks {@link EndpointName} and {@link RoomName} share. */
final class Names {
  private Names() {}

  static void check(String kind, String part, String value, Pattern pattern, String lengths) {
    if (value == null || !pattern.matcher(value).matches()) {
      throw new IllegalArgumentException(
          "the "
              + kind
              + "'s "
              + part
              + " must be "
              + lengths
              + " characters of A-Z a-z 0-9 _ . -; got "
              + (value == null ? "null" : "'" + value + "'"));
    }
  }

  static void notOnlyDots(String kind, String name) {
    if (name.chars().allMatch(c -> c == '.')) {
      throw new IllegalArgumentException("the " + kind + "'s name must not be only dots");
    }
  }

  static String[] split(String text, String what, String example) {
    int slash = text.indexOf('/');
    if (slash < 0 || slash != text.lastIndexOf('/')) {
      throw new IllegalArgumentException(
          what + " is written namespace/name, e.g. " + example + "; got '" + text + "'");
    }
    return new String[] {text.substring(0, slash), text.substring(slash + 1)};
  }
}
