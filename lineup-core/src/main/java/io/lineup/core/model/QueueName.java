package io.lineup.core.model;

import io.lineup.api.Names;

/**
 * A queue's address: a namespace (a tenant or application) and a name within it.
 *
 * <p>Each part is 1 to {@value #MAX_LENGTH} characters from {@code A-Z a-z 0-9 _ . -}, not made
 * only of dots: {@code .} and {@code ..} are path segments that browsers, HTTP clients and proxies
 * resolve away, so such a queue could not be reached over HTTP. The rule is {@link Names}'s, which
 * the server and the client apply too.
 *
 * @param namespace the namespace
 * @param name the queue name
 */
public record QueueName(String namespace, String name) {
  /** Longest namespace or queue name, in characters. */
  public static final int MAX_LENGTH = Names.MAX_LENGTH;

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
    String problem = Names.problem(value, MAX_LENGTH);
    if (problem != null) {
      throw new InvalidArgumentException(field, problem);
    }
  }

  @Override
  public String toString() {
    return namespace + "/" + name;
  }
}
