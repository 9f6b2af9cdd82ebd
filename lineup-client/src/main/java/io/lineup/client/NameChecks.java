package io.lineup.client;

import io.lineup.api.Names;

/**
 * The checks of {@link QueueName}, {@link EndpointName} and {@link RoomName}: the server's rule
 * ({@link Names}), in the client's words.
 */
final class NameChecks {
  private NameChecks() {}

  /**
   * Checks one part of a name.
   *
   * @param kind what is named: {@code queue}, {@code endpoint}, {@code room}
   * @param part {@code namespace} or {@code name}
   * @param value the part
   * @param maxLength its longest length
   * @throws IllegalArgumentException when the server would refuse the part
   */
  static void check(String kind, String part, String value, int maxLength) {
    if (Names.problem(value, maxLength) == null) {
      return;
    }
    if (Names.isOnlyDots(value)) {
      throw new IllegalArgumentException("the " + kind + "'s " + part + " must not be only dots");
    }
    throw new IllegalArgumentException(
        "the "
            + kind
            + "'s "
            + part
            + " must be 1-"
            + maxLength
            + " characters of "
            + Names.CHARACTERS
            + "; got "
            + (value == null ? "null" : "'" + value + "'"));
  }

  /**
   * The two parts of {@code namespace/name}.
   *
   * @throws IllegalArgumentException when the text has no single slash
   */
  static String[] split(String text, String what, String example) {
    int slash = text.indexOf('/');
    if (slash < 0 || slash != text.lastIndexOf('/')) {
      throw new IllegalArgumentException(
          what + " is written namespace/name, e.g. " + example + "; got '" + text + "'");
    }
    return new String[] {text.substring(0, slash), text.substring(slash + 1)};
  }
}
