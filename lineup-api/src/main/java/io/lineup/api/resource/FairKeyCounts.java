package io.lineup.api.resource;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * The fairness keys of a fair queue with the most jobs waiting or leased ({@code GET
 * /v1/queues/{ns}/{queue}/keys}, schema {@code FairKeyCounts}).
 *
 * @param keysWaiting how many keys have jobs waiting
 * @param keysLeased how many keys have jobs leased
 * @param by what the keys are ranked by: {@code waiting} or {@code leased}
 * @param keys up to the asked number of keys, most jobs first
 */
@JsonPropertyOrder({"keys_waiting", "keys_leased", "by", "keys"})
public record FairKeyCounts(
    @JsonProperty("keys_waiting") long keysWaiting,
    @JsonProperty("keys_leased") long keysLeased,
    @JsonProperty("by") String by,
    @JsonProperty("keys") List<Count> keys) {

  /**
   * One key's count.
   *
   * @param key the key
   * @param count its jobs waiting or leased, as {@code by} says
   */
  @JsonPropertyOrder({"key", "count"})
  public record Count(@JsonProperty("key") String key, @JsonProperty("count") long count) {}
}
