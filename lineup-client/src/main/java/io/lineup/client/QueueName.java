package io.lineup.client;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A queue's name: a namespace and a name, each 1 to 64 characters of {@code A-Z a-z 0-9 _ . -}.
 * Written {@code namespace/name}, e.g. {@code shop/close-unpaid}.
 *
 * @param namespace the namespace (a token acts in one namespace)
 * @param name the queue's name in its namespace
 */
public record QueueName(String namespace, String name) {
  /** Longest namespace or name, in characters. */
  public static final int MAX_LENGTH = 64;

  private static final Pattern PART = Pattern.compile("[A-Za-z0-9_.\\-]{1,64}");

  /**
   * @throws IllegalArgumentException when a part is null, empty, too long or has a character
   *     outside {@code A-Z a-z 0-9 _ . -}
   */
  public QueueName {
    check("namespace", namespace);
    check("name", name);
  }

  /**
   * The queue {@code namespace/name}.
   *
   * @throws IllegalArgumentException when a part is malformed
   */
  public static QueueName of(String namespace, String name) {
    return new QueueName(namespace, name);
  }

  /**
   * Reads {@code namespace/name}.
   *
   * @throws IllegalArgumentException when the text is not two well-formed parts around one slash
   */
  public static QueueName parse(String text) {
    Objects.requireNonNull(text, "text");
    int slash = text.indexOf('/');
    if (slash < 0 || slash != text.lastIndexOf('/')) {
      throw new IllegalArgumentException(
          "a queue is written namespace/name, e.g. shop/close-unpaid; got '" + text + "'");
    }
    return new QueueName(text.substring(0, slash), text.substring(slash + 1));
  }

  private static void check(String what, String value) {
    if (value == null || !PART.matcher(value).matches()) {
      throw new IllegalArgumentException(
          "the queue's "
              + what
              + " must be 1-64 characters of A-Z a-z 0-9 _ . -; got "
              + (value == null ? "null" : "'" + value + "'"));
    }
  }

  /** {@code namespace/name}. */
  @Override
  public String toString() {
    return namespace + "/" + name;
  }
}
