package io.lineup.cli;

import io.lineup.client.JobFilter;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import picocli.CommandLine.Option;

/** The filter options of {@code lineup jobs ls} and of the actions' {@code --all-matching}. */
final class JobListOptions {
  @Option(
      names = "--state",
      description = "The list: ready, delayed, leased, dead or finished (default ready).")
  String state = "ready";

  @Option(names = "--id-prefix", description = "Only jobs whose id starts with this.")
  String idPrefix;

  @Option(names = "--error", description = "Only jobs whose last error contains this text.")
  String error;

  @Option(
      names = "--from",
      description =
          "Only jobs whose sort time (due, lease deadline, death, finish; ready: creation) is at"
              + " least this: an ISO-8601 instant (2026-11-29T10:00:00Z) or epoch ms.")
  String from;

  @Option(names = "--to", description = "Only jobs whose sort time is at most this (as --from).")
  String to;

  /**
   * The filter the options name.
   *
   * @throws CliException when the state or a time is malformed
   */
  JobFilter filter() {
    try {
      return JobFilter.state(state)
          .idPrefix(idPrefix)
          .error(error)
          .between(time("--from", from), time("--to", to));
    } catch (IllegalArgumentException e) {
      throw new CliException(ExitCodes.USAGE, e.getMessage());
    }
  }

  private static Instant time(String option, String text) {
    if (text == null) {
      return null;
    }
    if (text.chars().allMatch(Character::isDigit) && !text.isEmpty() && text.length() < 16) {
      return Instant.ofEpochMilli(Long.parseLong(text));
    }
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw new CliException(
          ExitCodes.USAGE,
          option + " takes an ISO-8601 instant such as 2026-11-29T10:00:00Z, or epoch ms");
    }
  }
}
