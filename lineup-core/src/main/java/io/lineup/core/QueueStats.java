package io.lineup.core;

import java.time.Instant;
import java.util.Map;

/**
 * A queue's counts per state, rates, settings and lifetime counters, read in one atomic step.
 *
 * @param queue the queue
 * @param ready jobs in the ready line
 * @param delayed jobs waiting for their due time
 * @param leased jobs held by consumers
 * @param finished finished records kept for retention
 * @param dead dead letters
 * @param serviceRate measured acks per second (decaying average over 30 s)
 * @param settings the effective settings (defaults filled in)
 * @param counters lifetime counters by event: published, leased, acked, retried, dead, expired,
 *     cancelled, respawned, purged, ready
 * @param readAt Redis server time of the reading
 */
public record QueueStats(
    QueueName queue,
    long ready,
    long delayed,
    long leased,
    long finished,
    long dead,
    double serviceRate,
    QueueSettings settings,
    Map<String, Long> counters,
    Instant readAt) {}
