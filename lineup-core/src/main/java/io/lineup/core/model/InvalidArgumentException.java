package io.lineup.core.model;

/**
 * An argument the engine refuses before anything is written to Redis, with the name of the field
 * that is wrong, as the Java API spells it (e.g. {@code priority}, {@code timeToRun}); the HTTP
 * server maps these to its snake_case names.
 */
public class InvalidArgumentException extends LineupException {
  private final String field;

  public InvalidArgumentException(String field, String message) {
    super(field + ": " + message);
    this.field = field;
  }

  /** The offending field. */
  public String field() {
    return field;
  }

  /** The message without the field prefix. */
  public String reason() {
    return getMessage().substring(field.length() + 2);
  }
}
