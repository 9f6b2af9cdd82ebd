package io.lineup.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A queue's counts, service rate, settings and lifetime counters.
 *
 * @param queue the queue
 * @param ready jobs waiting in the ready line
 * @param delayed jobs not yet due
 * @param leased jobs held by consumers
 * @param dead jobs in dead letters
 * @param finished finished records kept for the retention window
 * @param serviceRate acks per second, a decaying average over 30 s
 * @param settings the effective settings
 * @param counters lifetime counts by event ({@code published}, {@code leased}, {@code acked}, ...)
 * @param readAt when the figures were read, Redis server time
 */
public record QueueStats(
    QueueName queue,
    long ready,
    long delayed,
    long leased,
    long dead,
    long finished,
    double serviceRate,
    QueueSettings settings,
    Map<String, Long> counters,
    Instant readAt) {

  /** The counter of one event, 0 when it never happened. */
  public long counter(String event) {
    return counters.getOrDefault(event, 0L);
  }

  static QueueStats read(JsonNode node) {
    JsonNode counts = node.path("counts");
    Map<String, Long> counters = new LinkedHashMap<>();
    node.path("counters")
        .properties()
        .forEach(e -> counters.put(e.getKey(), e.getValue().asLong()));
    return new QueueStats(
        QueueName.parse(Json.text(node, "queue")),
        counts.path("ready").asLong(),
        counts.path("delayed").asLong(),
        counts.path("leased").asLong(),
        counts.path("dead").asLong(),
        counts.path("finished").asLong(),
        node.path("service_rate").asDouble(),
        QueueSettings.read(node.path("settings")),
        Map.copyOf(counters),
        Json.time(node, "read_at"));
  }
}
