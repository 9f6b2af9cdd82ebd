package io.lineup.core.internal;

/** Result codes the scripts return; mirrors {@code lib/codes.lua}. */
public enum ScriptCode {
  OK(1),
  EXISTS(2),
  NOT_FOUND(-1),
  LEASE_EXPIRED(-2),
  LEASE_LOST(-3),
  CANCELLED(-4),
  EXPIRED(-5),
  ALREADY_DONE(-6),
  NOT_DEAD(-7);

  private final int code;

  ScriptCode(int code) {
    this.code = code;
  }

  /** The number the scripts use. */
  public int code() {
    return code;
  }

  /**
   * The constant for a number a script returned.
   *
   * @throws IllegalStateException for a number no script returns
   */
  public static ScriptCode of(long code) {
    for (ScriptCode value : values()) {
      if (value.code == code) {
        return value;
      }
    }
    throw new IllegalStateException("Unknown script code " + code);
  }
}
