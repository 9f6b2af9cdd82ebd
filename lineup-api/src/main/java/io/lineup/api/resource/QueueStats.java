package io.lineup.api.resource;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Map;

/**
 * A queue's counts, service rate, settings and lifetime counters ({@code GET
 * /v1/queues/{ns}/{queue}}, schema {@code Queue}); every field is present.
 *
 * @param queue the queue, {@code namespace/name}
 * @param namespace its namespace
 * @param name its name within the namespace
 * @param counts its jobs by state
 * @param serviceRate acks per second, a decaying average over 30 s
 * @param drainEtaMs the expected time to serve the ready line, in milliseconds, or null
 * @param drainEtaLowMs the band's low end, in milliseconds; null with {@code drainEtaMs}
 * @param drainEtaHighMs the band's high end, in milliseconds; null with {@code drainEtaMs}
 * @param settings the effective settings
 * @param counters lifetime counts by event ({@code published}, {@code leased}, {@code acked}, ...)
 * @param readAt when the figures were read, epoch milliseconds
 */
@JsonPropertyOrder({
  "queue",
  "namespace",
  "name",
  "counts",
  "service_rate",
  "drain_eta_ms",
  "drain_eta_low_ms",
  "drain_eta_high_ms",
  "settings",
  "counters",
  "read_at"
})
public record QueueStats(
    @JsonProperty("queue") String queue,
    @JsonProperty("namespace") String namespace,
    @JsonProperty("name") String name,
    @JsonProperty("counts") Counts counts,
    @JsonProperty("service_rate") double serviceRate,
    @JsonProperty("drain_eta_ms") Long drainEtaMs,
    @JsonProperty("drain_eta_low_ms") Long drainEtaLowMs,
    @JsonProperty("drain_eta_high_ms") Long drainEtaHighMs,
    @JsonProperty("settings") QueueSettings settings,
    @JsonProperty("counters") Map<String, Long> counters,
    @JsonProperty("read_at") Long readAt) {

  /** The counter of one event, 0 when it never happened. */
  public long counter(String event) {
    return counters == null ? 0 : counters.getOrDefault(event, 0L);
  }

  /**
   * A queue's jobs by state.
   *
   * @param ready jobs waiting in the ready line
   * @param delayed jobs not yet due
   * @param leased jobs held by consumers
   * @param dead jobs in dead letters
   * @param finished finished records kept for the retention window
   */
  @JsonPropertyOrder({"ready", "delayed", "leased", "dead", "finished"})
  public record Counts(
      @JsonProperty("ready") long ready,
      @JsonProperty("delayed") long delayed,
      @JsonProperty("leased") long leased,
      @JsonProperty("dead") long dead,
      @JsonProperty("finished") long finished) {}
}
