package io.lineup.core;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that moves only when told, for tests: a 30-minute delay is checked by advancing it. Every
 * engine given the same instance agrees on the time.
 */
public final class ManualClock implements TimeSource {
  private final AtomicLong epochMillis;

  public ManualClock(Instant start) {
    this.epochMillis = new AtomicLong(start.toEpochMilli());
  }

  /** Now. */
  public Instant now() {
    return Instant.ofEpochMilli(epochMillis.get());
  }

  /** Moves time forward (or back, with a negative duration). */
  public void advance(Duration by) {
    epochMillis.addAndGet(by.toMillis());
  }

  @Override
  public String scriptArgument() {
    return Long.toString(epochMillis.get());
  }
}
