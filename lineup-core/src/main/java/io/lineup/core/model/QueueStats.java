package io.lineup.core.model;

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
 * @param serviceRate estimated jobs served per second ({@link EtaEstimator#ratePerSecond()}: the
 *     completions of the recent seconds, capped by the limits); 0 when there is no estimate
 *     (paused, or nothing served in the last minute and no expected service time)
 * @param drainEta estimated time to serve every job ready now, with its band (the wait of the last
 *     ready job, zero when none is ready); null when there is no estimate
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
    Eta drainEta,
    QueueSettings settings,
    Map<String, Long> counters,
    Instant readAt) {}
