package io.lineup.core.model;

/**
 * One fairness key of a fair queue: its settings and counts.
 *
 * @param key the key
 * @param own the key's own settings (null values: the queue's)
 * @param effective the settings that apply to it, with no null value
 * @param waiting its jobs waiting: ready, delayed or held by a pause
 * @param leased its jobs leased now
 * @param parked its ready jobs held out of the line while it is paused (part of {@code waiting})
 */
public record KeyStatus(
    String key, KeySettings own, KeySettings effective, long waiting, long leased, long parked) {}
