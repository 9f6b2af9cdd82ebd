package io.lineup.api.resource;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * What an action on jobs did ({@code POST /v1/queues/{ns}/{queue}/jobs/actions}, {@code POST
 * …/jobs/{id}/run-now}, {@code POST …/jobs/{id}/respawn}).
 *
 * @param action the action: {@code cancel}, {@code delete}, {@code run_now} or {@code respawn}
 * @param matched jobs named (by id, or matching the filter)
 * @param done jobs the action was applied to
 * @param skipped the others, each with why
 */
@JsonPropertyOrder({"action", "matched", "done", "skipped"})
public record JobActionResult(
    @JsonProperty("action") String action,
    @JsonProperty("matched") long matched,
    @JsonProperty("done") long done,
    @JsonProperty("skipped") List<Skipped> skipped) {
  /** Keeps an unmodifiable copy of {@code skipped} (none when null). */
  public JobActionResult {
    skipped = skipped == null ? List.of() : List.copyOf(skipped);
  }

  /**
   * A job the action left alone.
   *
   * @param id its id
   * @param reason {@code not_found} (no record), or {@code state_} and the state it is in, which
   *     the action does not take (e.g. {@code state_done})
   */
  @JsonPropertyOrder({"id", "reason"})
  public record Skipped(@JsonProperty("id") String id, @JsonProperty("reason") String reason) {}
}
