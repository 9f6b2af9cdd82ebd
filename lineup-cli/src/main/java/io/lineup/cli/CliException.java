package io.lineup.cli;

/** A failure the command explains in one line, with the exit code that says what kind it is. */
final class CliException extends RuntimeException {
  private final int exitCode;

  CliException(int exitCode, String message) {
    super(message, null, false, false);
    this.exitCode = exitCode;
  }

  int exitCode() {
    return exitCode;
  }
}
