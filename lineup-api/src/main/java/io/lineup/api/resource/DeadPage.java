package io.lineup.api.resource;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * A page of a queue's dead letters, oldest death first ({@code GET /v1/queues/{ns}/{queue}/dead}).
 *
 * @param total dead letters in the queue
 * @param jobs this page
 */
@JsonPropertyOrder({"total", "jobs"})
public record DeadPage(
    @JsonProperty("total") long total, @JsonProperty("jobs") List<DeadJob> jobs) {
  /** Keeps an unmodifiable copy of {@code jobs} (none when null). */
  public DeadPage {
    jobs = jobs == null ? List.of() : List.copyOf(jobs);
  }
}
