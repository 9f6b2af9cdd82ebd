package io.lineup.cli;

/** A job's command failed: its message is the job's error when it is nacked. */
final class CommandFailed extends Exception {
  CommandFailed(String message) {
    super(message, null, false, false);
  }
}
