package io.lineup.core.model;

/** Base of every exception the engine throws on purpose. */
public class LineupException extends RuntimeException {
  public LineupException(String message) {
    super(message);
  }

  public LineupException(String message, Throwable cause) {
    super(message, cause);
  }
}
