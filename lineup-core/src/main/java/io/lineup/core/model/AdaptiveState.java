package io.lineup.core.model;

import java.time.Instant;

/**
 * A queue's adaptive concurrency limit as it stands in Redis ({@link
 * io.lineup.core.AdaptiveLimits#read}).
 *
 * @param settings its bounds and settings (the starting limit is not kept: it reads as {@code min})
 * @param limit the limit in force: at most this many jobs leased at once (under the queue's fixed
 *     concurrency limit, when it has one)
 * @param reason why it last moved or held, e.g. {@code decrease: 429}, {@code increase: latency
 *     120ms<=200ms}, {@code hold: retry-after 5000ms}, {@code start: 1}
 * @param movedAt when it last moved or held, or null
 * @param holdUntil until when a {@code Retry-After} holds the queue (no lease), or null when no
 *     hold is in force
 * @param readAt when it was read, by the engine's clock
 */
public record AdaptiveState(
    AdaptiveSettings settings,
    int limit,
    String reason,
    Instant movedAt,
    Instant holdUntil,
    Instant readAt) {}
