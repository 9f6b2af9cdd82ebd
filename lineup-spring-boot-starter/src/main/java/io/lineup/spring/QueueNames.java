package io.lineup.spring;

/** Parses the starter's {@code namespace/name} queue texts into each mode's queue type. */
final class QueueNames {
  private QueueNames() {}

  /**
   * The engine's queue name.
   *
   * @throws IllegalArgumentException when the text is not {@code namespace/name} of valid names
   */
  static io.lineup.core.model.QueueName engine(String text) {
    try {
      return io.lineup.core.model.QueueName.parse(text);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("queue '" + text + "': " + e.getMessage(), e);
    }
  }

  /**
   * The client's queue name.
   *
   * @throws IllegalArgumentException when the text is not {@code namespace/name} of valid names
   */
  static io.lineup.client.QueueName client(String text) {
    try {
      return io.lineup.client.QueueName.parse(text);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("queue '" + text + "': " + e.getMessage(), e);
    }
  }
}
