package io.lineup.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A page of dead letters, oldest death first.
 *
 * @param total dead letters in the queue
 * @param jobs this page
 */
public record DeadPage(long total, List<DeadJob> jobs) {
  static DeadPage read(JsonNode node) {
    List<DeadJob> jobs = new ArrayList<>();
    node.path("jobs").forEach(item -> jobs.add(DeadJob.read(item)));
    return new DeadPage(node.path("total").asLong(), List.copyOf(jobs));
  }
}
