package io.lineup.core.model;

import java.time.Instant;

/**
 * A job as a list by state shows it ({@code Lineup.listJobs}).
 *
 * @param id its id
 * @param state its state
 * @param payload its payload (empty for cancelled and expired records, which keep none)
 * @param priority its priority
 * @param attempts deliveries so far
 * @param createdAt when it was published, Redis server time
 * @param at the time its list is sorted by: due time (delayed), lease deadline (leased), death
 *     (dead) or finish (finished); null for ready jobs, sorted by priority and arrival
 * @param position its place in the ready line (0 = next) for ready jobs, else -1
 * @param lastError the error text of its last failure, or null
 */
public record ListedJob(
    String id,
    JobState state,
    byte[] payload,
    int priority,
    int attempts,
    Instant createdAt,
    Instant at,
    long position,
    String lastError) {}
