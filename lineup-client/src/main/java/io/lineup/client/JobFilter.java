package io.lineup.client;

import io.lineup.api.JobListFields;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;

/**
 * Which of a queue's jobs to list or act on: one state's list and optional filters. Immutable;
 * start from {@link #state(String)}.
 *
 * <pre>{@code
 * JobFilter timeouts = JobFilter.state("dead").error("timed out");
 * }</pre>
 *
 * @param state the list: {@code ready}, {@code delayed}, {@code leased}, {@code dead} or {@code
 *     finished}
 * @param idPrefix text a job's id starts with, or null
 * @param error text the job's last error contains (case-sensitive), or null
 * @param from the earliest sort time (due, lease deadline, death, finish; for ready, creation), or
 *     null
 * @param to the latest sort time (inclusive), or null
 */
public record JobFilter(String state, String idPrefix, String error, Instant from, Instant to) {
  /**
   * Checks the state.
   *
   * @throws IllegalArgumentException when the state is not one of the lists
   */
  public JobFilter {
    Objects.requireNonNull(state, "state");
    state = state.toLowerCase(Locale.ROOT);
    if (!JobListFields.STATES.contains(state)) {
      throw new IllegalArgumentException(
          "state must be one of " + JobListFields.STATES + "; got " + state);
    }
  }

  /** Every job of one state's list. */
  public static JobFilter state(String state) {
    return new JobFilter(state, null, null, null, null);
  }

  /** The same, keeping ids that start with {@code prefix} (null: any). */
  public JobFilter idPrefix(String prefix) {
    return new JobFilter(state, prefix, error, from, to);
  }

  /** The same, keeping jobs whose last error contains {@code text} (null: any). */
  public JobFilter error(String text) {
    return new JobFilter(state, idPrefix, text, from, to);
  }

  /**
   * The same, keeping jobs whose sort time is between {@code from} and {@code to} (either null).
   */
  public JobFilter between(Instant from, Instant to) {
    return new JobFilter(state, idPrefix, error, from, to);
  }
}
