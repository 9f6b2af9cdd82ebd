package io.lineup.api;

/**
 * The rule for the names of namespaces, queues, endpoints and waiting rooms, as the engine, the
 * server and the client apply it.
 *
 * <p>A name is 1 to a maximum number of characters from {@code A-Z a-z 0-9 _ . -}, not made only of
 * dots: {@code .} and {@code ..} are path segments that browsers, HTTP clients and proxies resolve
 * away, so such a name could not be reached over HTTP. Namespaces and queue names are at most
 * {@value #MAX_LENGTH} characters; an endpoint's or a room's name is shorter by the prefix of the
 * queue that holds its work ({@value #ENDPOINT_QUEUE_PREFIX}, {@value #ROOM_QUEUE_PREFIX}).
 */
public final class Names {
  /** Longest namespace or queue name, in characters. */
  public static final int MAX_LENGTH = 64;

  /** The prefix of the queue that holds an endpoint's tasks. */
  public static final String ENDPOINT_QUEUE_PREFIX = "dispatch.";

  /** The prefix of the queue that holds a waiting room's tickets. */
  public static final String ROOM_QUEUE_PREFIX = "room.";

  /** Longest endpoint name: the queue name's limit less its queue's prefix (55 characters). */
  public static final int MAX_ENDPOINT_LENGTH = MAX_LENGTH - ENDPOINT_QUEUE_PREFIX.length();

  /** Longest room name: the queue name's limit less its queue's prefix (59 characters). */
  public static final int MAX_ROOM_LENGTH = MAX_LENGTH - ROOM_QUEUE_PREFIX.length();

  /** Longest recurring schedule name, in characters. */
  public static final int MAX_SCHEDULE_LENGTH = 128;

  /** The characters of a schedule name, as messages give them: a name's and {@code :}. */
  public static final String SCHEDULE_CHARACTERS = "A-Z a-z 0-9 _ . - :";

  /** The characters of a name, as messages give them. */
  public static final String CHARACTERS = "A-Z a-z 0-9 _ . -";

  private Names() {}

  /** Whether {@code c} is one of {@code A-Z a-z 0-9 _ . -}, the characters of a name. */
  public static boolean isNameChar(char c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || c == '_'
        || c == '.'
        || c == '-';
  }

  /** Whether a non-empty text is made only of dots ({@code .}, {@code ..}, ...). */
  public static boolean isOnlyDots(String value) {
    if (value.isEmpty()) {
      return false;
    }
    for (int i = 0; i < value.length(); i++) {
      if (value.charAt(i) != '.') {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether a text is a namespace or queue name (at most {@value #MAX_LENGTH} characters).
   *
   * @param value the text, may be null
   */
  public static boolean isName(String value) {
    return problem(value, MAX_LENGTH) == null;
  }

  /**
   * What is wrong with a name of at most {@code maxLength} characters, in the words of the API's
   * error messages, or null when nothing is: {@code must not be empty}, {@code must be at most 64
   * characters, got 70}, {@code may only contain A-Z a-z 0-9 _ . - but was 'a b'}, {@code must not
   * be made only of dots (. and .. are path segments), got '..'}.
   *
   * @param value the text, may be null (which is empty)
   * @param maxLength the longest name allowed
   */
  public static String problem(String value, int maxLength) {
    if (value == null || value.isEmpty()) {
      return "must not be empty";
    }
    if (value.length() > maxLength) {
      return "must be at most " + maxLength + " characters, got " + value.length();
    }
    // A loop, not a regular expression: names are checked on every call that takes a queue.
    for (int i = 0; i < value.length(); i++) {
      if (!isNameChar(value.charAt(i))) {
        return "may only contain " + CHARACTERS + " but was '" + value + "'";
      }
    }
    if (isOnlyDots(value)) {
      return "must not be made only of dots (. and .. are path segments), got '" + value + "'";
    }
    return null;
  }

  /**
   * What is wrong with a recurring schedule's name, or null when nothing is: 1 to {@value
   * #MAX_SCHEDULE_LENGTH} characters from {@code A-Z a-z 0-9 _ . - :}, not made only of dots (a
   * schedule's name is a path segment).
   *
   * @param value the text, may be null (which is empty)
   */
  public static String scheduleProblem(String value) {
    if (value == null || value.isEmpty()) {
      return "must not be empty";
    }
    if (value.length() > MAX_SCHEDULE_LENGTH) {
      return "must be at most " + MAX_SCHEDULE_LENGTH + " characters, got " + value.length();
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (!isNameChar(c) && c != ':') {
        return "may only contain " + SCHEDULE_CHARACTERS + " but was '" + value + "'";
      }
    }
    if (isOnlyDots(value)) {
      return "must not be made only of dots (. and .. are path segments), got '" + value + "'";
    }
    return null;
  }
}
