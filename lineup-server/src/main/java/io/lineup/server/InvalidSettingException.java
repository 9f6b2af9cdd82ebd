package io.lineup.server;

/** A setting (environment variable or flag) is malformed or out of range; the message names it. */
public class InvalidSettingException extends RuntimeException {
  public InvalidSettingException(String message) {
    super(message);
  }
}
