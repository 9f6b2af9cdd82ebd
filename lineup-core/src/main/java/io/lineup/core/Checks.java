package io.lineup.core;

import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.Limits;
import java.time.Duration;

/**
 * Argument checks shared by the engine's entry points; each throws {@link
 * InvalidArgumentException}.
 */
final class Checks {
  private Checks() {}

  /** A job id as callers may give it back: 1 to {@value Limits#MAX_ID_LENGTH} characters. */
  static void id(String id) {
    if (id == null || id.isEmpty() || id.length() > Limits.MAX_ID_LENGTH) {
      throw new InvalidArgumentException(
          "id", "must be 1 to " + Limits.MAX_ID_LENGTH + " characters");
    }
  }

  /**
   * A page of a list: {@code count} 1 to {@value Limits#MAX_BATCH} from a non-negative {@code
   * offset}.
   */
  static void page(int offset, int count) {
    if (count < 1 || count > Limits.MAX_BATCH) {
      throw new InvalidArgumentException(
          "count", "must be between 1 and " + Limits.MAX_BATCH + ", got " + count);
    }
    if (offset < 0) {
      throw new InvalidArgumentException("offset", "must not be negative");
    }
  }

  /**
   * A duration within [minMs, maxMs] milliseconds, or null (unset). Compared as durations, so a
   * huge value is refused rather than overflowing.
   */
  static void duration(String field, Duration value, long minMs, long maxMs) {
    if (value == null) {
      return;
    }
    if (value.compareTo(Duration.ofMillis(minMs)) < 0
        || value.compareTo(Duration.ofMillis(maxMs)) > 0) {
      throw new InvalidArgumentException(
          field, "must be between " + minMs + " ms and " + maxMs + " ms, got " + describe(value));
    }
  }

  private static String describe(Duration value) {
    return value.abs().compareTo(Duration.ofDays(100_000)) > 0
        ? value.getSeconds() + " s"
        : value.toMillis() + " ms";
  }
}
