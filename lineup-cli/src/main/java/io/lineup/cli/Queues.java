package io.lineup.cli;

import io.lineup.client.QueueName;

/** Reads queue arguments. */
final class Queues {
  private Queues() {}

  /**
   * Reads {@code namespace/name}.
   *
   * @throws CliException (exit code 2) when malformed
   */
  static QueueName parse(String text) {
    try {
      return QueueName.parse(text);
    } catch (IllegalArgumentException e) {
      throw new CliException(ExitCodes.USAGE, e.getMessage());
    }
  }
}
