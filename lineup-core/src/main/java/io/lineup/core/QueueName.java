package io.lineup.core;

/**
 * A queue's address: a namespace (a tenant or application) and a name within it.
 *
 * <p>Each part is 1 to {@value #MAX_LENGTH} characters from {@code A-Z a-z 0-9 _ . -}, not made
 * only of dots: {@code .} and {@code ..} are path segments that browsers, HTTP clients and proxies
 * resolve away, so such a queue could not be reached over HTTP.
 *
 * @param namespace the namespace
 * @param name the queue name
 */
public record QueueName(String namespace, String name) {
  /** Longest namespace or queue name, in characters. */
  public static final int MAX_LENGTH = 64;

  /**
   * @throws InvalidArgumentException when a part is empty, too long, has other characters or is
   *     made only of dots
   */
  public QueueName {
    check("namespace", namespace);
    check("queue", name);
  }

  /** Same as the constructor. */
  public static QueueName of(String namespace, String name) {
    return new QueueName(namespace, name);
  }

  /**
   * Parses {@code namespace/name}.
   *
   * @throws InvalidArgumentException when the text has no single slash or a part is invalid
   */
  public static QueueName parse(String text) {
    int slash = text == null ? -1 : text.indexOf('/');
    if (slash < 0 || text.indexOf('/', slash + 1) >= 0) {
      throw new InvalidArgumentException("queue", "expected namespace/name, got " + text);
    }
    return new QueueName(text.substring(0, slash), text.substring(slash + 1));
  }

  private static void check(String field, String value) {
    if (value == null || value.isEmpty()) {
      throw new InvalidArgumentException(field, "must not be empty");
    }
    if (value.length() > MAX_LENGTH) {
      throw new InvalidArgumentException(
          field, "must be at most " + MAX_LENGTH + " characters, got " + value.length());
    }
    // A loop, not a regular expression: names are checked on every call that takes a queue.
    boolean onlyDots = true;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (!Checks.isNameChar(c)) {
        throw new InvalidArgumentException(
            field, "may only contain A-Z a-z 0-9 _ . - but was '" + value + "'");
      }
      onlyDots &= c == '.';
    }
    if (onlyDots) {
      throw new InvalidArgumentException(
          field, "must not be made only of dots (. and .. are path segments), got '" + value + "'");
    }
  }

  @Override
  public String toString() {
    return namespace + "/" + name;
  }
}
