package io.lineup.archive;

/** The archive's database could not be reached, or refused a statement. */
public class ArchiveUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message what failed, without credentials
   * @param cause the database's error
   */
  public ArchiveUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
