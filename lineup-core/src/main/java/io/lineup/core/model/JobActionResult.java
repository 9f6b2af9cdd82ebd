package io.lineup.core.model;

import java.util.List;

/**
 * What an action on jobs did.
 *
 * @param action the action
 * @param matched jobs named (by id, or matching the filter)
 * @param done jobs the action was applied to
 * @param skipped the others, each with why
 */
public record JobActionResult(JobAction action, long matched, long done, List<Skipped> skipped) {
  /** Keeps an unmodifiable copy of {@code skipped}. */
  public JobActionResult {
    skipped = List.copyOf(skipped);
  }

  /**
   * A job an action left alone.
   *
   * @param id its id
   * @param reason why: {@code not_found} (no record), or {@code state_<state>} (its state, in lower
   *     case, is not one the action takes, e.g. {@code state_done})
   */
  public record Skipped(String id, String reason) {}
}
