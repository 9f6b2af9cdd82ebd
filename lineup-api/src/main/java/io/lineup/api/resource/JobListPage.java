package io.lineup.api.resource;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * A page of a queue's jobs in one state ({@code GET /v1/queues/{ns}/{queue}/jobs}).
 *
 * @param jobs the jobs that matched, in the list's order
 * @param nextCursor the {@code cursor} of the next page, or null when the list has no entries after
 *     this page
 * @param scanned entries examined for this page (at most 1,000); more than the jobs when a filter
 *     left some out
 */
@JsonPropertyOrder({"jobs", "next_cursor", "scanned"})
public record JobListPage(
    @JsonProperty("jobs") List<ListedJob> jobs,
    @JsonProperty("next_cursor") String nextCursor,
    @JsonProperty("scanned") long scanned) {
  /** Keeps an unmodifiable copy of {@code jobs} (none when null). */
  public JobListPage {
    jobs = jobs == null ? List.of() : List.copyOf(jobs);
  }
}
