package io.lineup.client;

import io.lineup.api.Names;
import java.util.Objects;

/**
 * A queue's name: a namespace and a name, each 1 to 64 characters of {@code A-Z a-z 0-9 _ . -}, not
 * made only of dots (the server's rule, {@link Names}). Written {@code namespace/name}, e.g. {@code
 * shop/close-unpaid}.
 *
 * @param namespace the namespace (a token acts in one namespace)
 * @param name the queue's name in its namespace
 */
public record QueueName(String namespace, String name) {
  /** Longest namespace or name, in characters. */
  public static final int MAX_LENGTH = Names.MAX_LENGTH;

  /**
   * @throws IllegalArgumentException when a part is null, empty, too long, has a character outside
   *     {@code A-Z a-z 0-9 _ . -} or is made only of dots
   */
  public QueueName {
    NameChecks.check("queue", "namespace", namespace, MAX_LENGTH);
    NameChecks.check("queue", "name", name, MAX_LENGTH);
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
    String[] parts = NameChecks.split(text, "a queue", "shop/close-unpaid");
    return new QueueName(parts[0], parts[1]);
  }

  /** {@code namespace/name}. */
  @Override
  public String toString() {
    return namespace + "/" + name;
  }
}
