package io.lineup.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations on the command line: {@code 500ms}, {@code 30s}, {@code 5m}, {@code 2h}, {@code 3d}, or
 * milliseconds.
 */
final class Durations {
  private static final Pattern TEXT = Pattern.compile("(\\d+)(ms|s|m|h|d)?");

  private Durations() {}

  /**
   * Reads a duration.
   *
   * @throws CliException (exit code 2) naming the option when the text is not a duration
   */
  static Duration parse(String option, String text) {
    Matcher m = TEXT.matcher(text.strip());
    if (!m.matches()) {
      throw new CliException(
          ExitCodes.USAGE,
          option + ": '" + text + "' is not a duration; write e.g. 500ms, 30s, 5m, 2h or 3d");
    }
    long amount;
    try {
      amount = Long.parseLong(m.group(1));
    } catch (NumberFormatException e) {
      throw new CliException(ExitCodes.USAGE, option + ": '" + text + "' is too large");
    }
    String unit = m.group(2) == null ? "ms" : m.group(2);
    return switch (unit) {
      case "ms" -> Duration.ofMillis(amount);
      case "s" -> Duration.ofSeconds(amount);
      case "m" -> Duration.ofMinutes(amount);
      case "h" -> Duration.ofHours(amount);
      default -> Duration.ofDays(amount);
    };
  }

  /**
   * Reads a deadline: an RFC 3339 time ({@code 2030-01-01T09:00:00Z}, {@code
   * 2030-01-01T10:00:00+01:00}) or a duration from now ({@code 30s}, {@code 5m}, as {@link
   * #parse}).
   *
   * @param now the moment a duration counts from
   * @throws CliException (exit code 2) naming the option when the text is neither
   */
  static java.time.Instant deadline(String option, String text, java.time.Instant now) {
    String given = text.strip();
    if (given.contains("T") || given.contains("t")) {
      try {
        return java.time.OffsetDateTime.parse(given).toInstant();
      } catch (java.time.format.DateTimeParseException e) {
        throw new CliException(
            ExitCodes.USAGE,
            option
                + ": '"
                + text
                + "' is not an RFC 3339 time like 2030-01-01T09:00:00Z nor a duration like 30s");
      }
    }
    return now.plus(parse(option, given));
  }

  /** A short human form: {@code 250 ms}, {@code 4.2 s}, {@code 3 min 5 s}. */
  static String human(Duration d) {
    long ms = d.toMillis();
    if (ms < 1000) {
      return ms + " ms";
    }
    if (ms < 60_000) {
      return String.format(java.util.Locale.ROOT, "%.1f s", ms / 1000.0);
    }
    long s = ms / 1000;
    if (s < 3600) {
      return (s / 60) + " min " + (s % 60) + " s";
    }
    return (s / 3600) + " h " + (s % 3600 / 60) + " min";
  }
}
