package io.lineup.server.http;

/**
 * Whether the server is shutting down: from then on new requests are refused with 503 {@code
 * shutting_down}, {@code /ready} fails, and lease calls do not start waiting.
 */
public final class Draining {
  private volatile boolean on;

  /** The shutdown has begun. */
  public void start() {
    on = true;
  }

  /** Whether the shutdown has begun. */
  public boolean isOn() {
    return on;
  }
}
