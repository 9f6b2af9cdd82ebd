package io.lineup.dispatch;

import io.lineup.core.model.AdaptiveState;
import io.lineup.core.model.QueueStats;

/**
 * An endpoint as it stands: its settings, its breaker and its tasks.
 *
 * @param key its namespace and name
 * @param spec its settings
 * @param createdAt when it was first put, epoch milliseconds
 * @param updatedAt when it was last put, epoch milliseconds
 * @param breaker its circuit breaker as stored
 * @param tasks its queue's counts and service rate (its concurrency limit the adaptive one when
 *     that is lower)
 * @param adaptive its adaptive concurrency limit as it stands in Redis (limit, reason, when it
 *     moved), or null when the endpoint has none
 */
public record EndpointView(
    EndpointKey key,
    EndpointSpec spec,
    long createdAt,
    long updatedAt,
    BreakerState breaker,
    QueueStats tasks,
    AdaptiveState adaptive) {}
