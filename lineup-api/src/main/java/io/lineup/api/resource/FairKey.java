package io.lineup.api.resource;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One fairness key of a fair queue ({@code GET /v1/queues/{ns}/{queue}/keys/{key}}, schema {@code
 * FairKey}): its own settings, the settings that apply to it, and its counts. A key never seen has
 * no own settings and no jobs.
 *
 * @param key the key
 * @param own the key's own settings; a null value takes the queue's
 * @param effective the settings that apply to it, with no null value
 * @param paused whether the key is paused
 * @param waiting its jobs waiting: ready, delayed or held by a pause
 * @param leased its jobs leased now
 * @param parked its ready jobs held out of the line while it is paused (part of {@code waiting})
 */
@JsonPropertyOrder({"key", "own", "effective", "paused", "waiting", "leased", "parked"})
public record FairKey(
    @JsonProperty("key") String key,
    @JsonProperty("own") Settings own,
    @JsonProperty("effective") Settings effective,
    @JsonProperty("paused") boolean paused,
    @JsonProperty("waiting") long waiting,
    @JsonProperty("leased") long leased,
    @JsonProperty("parked") long parked) {

  /**
   * A key's settings (schema {@code FairKeySettings}); every field is present.
   *
   * @param weight its share of each turn, 1 to 100
   * @param concurrency most jobs leased at once; 0 = no limit
   * @param rate most leases per {@code ratePeriodMs}; 0 = no limit
   * @param ratePeriodMs the period of {@code rate}, in milliseconds
   * @param maxWaiting most jobs waiting; 0 = no limit
   */
  @JsonPropertyOrder({"weight", "concurrency", "rate", "rate_period_ms", "max_waiting"})
  public record Settings(
      @JsonProperty("weight") Integer weight,
      @JsonProperty("concurrency") Integer concurrency,
      @JsonProperty("rate") Integer rate,
      @JsonProperty("rate_period_ms") Long ratePeriodMs,
      @JsonProperty("max_waiting") Integer maxWaiting) {}
}
